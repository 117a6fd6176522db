import Localization
/// A command line broker-ctl cannot run: unknown option, missing or bad value, extra argument.
/// Reported on standard error with the usage line, and exit status 64.
struct UsageError: Error, Equatable {
    /// What is wrong, starting in lower case: it follows `Error: `.
    var message: String
    /// The subcommand whose usage to show, or nil for broker-ctl's own.
    var subcommandName: String?

    init(_ message: String, subcommand subcommandName: String? = nil) {
        self.message = message
        self.subcommandName = subcommandName
    }

    /// The three lines printed to standard error.
    var report: String {
        let subcommand = subcommandName.flatMap(BrokerCtl.subcommand(named:))
        let usage = subcommand?.usage ?? HelpText.globalUsage
        let helpCommand = subcommand.map { "broker-ctl \($0.name) --help" } ?? "broker-ctl --help"
        // TRANSLATORS: the three lines of a command-line mistake: what is wrong, the usage line, and where help is.
        return localized("Error: {message}", ["message": message]) + "\n" + localized("Usage: {usage}", ["usage": usage]) + "\n"
            + localized("See '{command}'.", ["command": helpCommand]) + "\n"
    }
}
