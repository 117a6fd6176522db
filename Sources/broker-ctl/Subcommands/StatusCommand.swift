import MediaDonationClient
import Localization

/// `broker-ctl status`: whether the broker runs, which version, whether recording is paused, how much
/// it holds, whom it follows.
struct StatusCommand: Subcommand, Equatable {
    static let name = "status"
    static let summary = localized("Show whether the broker is running, how many listens it holds and which players it follows.")

    enum Option {
        static let json = OptionSpec("json", help: localized("Print the status as one JSON object."))
    }

    static let options = [Option.json]

    var printsJSON = false

    init(printsJSON: Bool = false) {
        self.printsJSON = printsJSON
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        printsJSON = arguments.contains(Option.json)
    }

    func run(in environment: RunEnvironment) async throws(MediaBrokerError) {
        let status = try await environment.connectToBroker().status()
        environment.standardOutput.write(printsJSON ? StatusOutput.json(status) : StatusOutput.text(status, timeZone: environment.timeZone))
    }
}
