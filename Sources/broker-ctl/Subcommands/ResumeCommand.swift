import MediaDonationClient
import Localization

/// `broker-ctl resume`: record again now.
struct ResumeCommand: Subcommand, Equatable {
    static let name = "resume"
    static let summary = localized("Record again now, ending a pause.")

    enum Option {
        static let json = OptionSpec("json", help: localized("Print {\"paused\": false}."))
    }

    static let options = [Option.json]
    static let discussion = localized("""
        Ends a pause set with `broker-ctl pause`; does nothing when recording is not paused.

        Example:
          broker-ctl resume
        """)

    var printsJSON = false

    init(printsJSON: Bool = false) {
        self.printsJSON = printsJSON
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        printsJSON = arguments.contains(Option.json)
    }

    func run(in environment: RunEnvironment) async throws(MediaBrokerError) {
        let broker = try environment.connectToBroker()
        let wasPaused = try await broker.currentPause() != nil
        try await broker.resume()
        environment.standardOutput.write(
            printsJSON ? PauseOutput.json(nil) : (wasPaused ? localized("Recording again.") : localized("Recording was not paused.")) + "\n")
    }
}
