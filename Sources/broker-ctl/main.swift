// The whole program: parse, connect, print, exit. Everything it does is in `BrokerCtl.run`, which
// tests call with captured output instead of a process.
internal import Glibc

let exitCode = await BrokerCtl.run(arguments: CommandLine.arguments, in: .live())
exit(exitCode)
