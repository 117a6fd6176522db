// The whole program: parse, connect, print, exit. Everything it does is in `BrokerCtl.run`, which
// tests call with captured output instead of a process. No `await` up here: that would start the
// concurrency runtime's thread pool, which a command that makes one call does not need
// (see MainThreadExecutor). The locale and the catalogs come first, so every word and time it
// prints follows the person's.
internal import Glibc
internal import Localization

Localization.setUp()
exit(MainThreadExecutor.run { await BrokerCtl.run(arguments: CommandLine.arguments, in: .live()) })
