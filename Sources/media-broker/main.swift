import Localization
import MediaBroker
#if canImport(Glibc)
import Glibc
#endif

// The locale and the catalogs before anything is said: the notifications speak the person's language.
Localization.setUp()
exit(BrokerDaemon.main(arguments: CommandLine.arguments, environment: ProcessEnvironment.current))
