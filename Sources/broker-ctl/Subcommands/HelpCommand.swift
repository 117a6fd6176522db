import MediaDonationClient
import Localization

/// `broker-ctl help [SUBCOMMAND]`; also what `--help` and `SUBCOMMAND --help` become.
struct HelpCommand: Subcommand, Equatable {
    static let name = "help"
    static let summary = localized("Show help for broker-ctl or one of its subcommands.")
    static let options: [OptionSpec] = []
    static let arguments = [
        ArgumentSpec(name: "SUBCOMMAND", isOptional: true, help: localized("The subcommand to explain."))
    ]

    /// The subcommand to explain, or nil for broker-ctl as a whole.
    var topic: String?

    init(topic: String?) {
        self.topic = topic
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        topic = arguments.positionals.first
        if let topic, BrokerCtl.subcommand(named: topic) == nil {
            throw UsageError(localized("unknown subcommand '{subcommand}'", ["subcommand": topic]))
        }
    }

    var text: String {
        topic.flatMap(BrokerCtl.subcommand(named:)).map(HelpText.forSubcommand) ?? HelpText.global
    }

    func run(in environment: RunEnvironment) async throws(MediaBrokerError) {
        environment.standardOutput.write(text)
    }
}
