import MediaBroker
#if canImport(Glibc)
import Glibc
#endif

exit(BrokerDaemon.main(arguments: CommandLine.arguments, environment: ProcessEnvironment.current))
