import MediaDonationClient
import Localization

/// `broker-ctl now`: what each player is playing at this moment.
struct NowCommand: Subcommand, Equatable {
    static let name = "now"
    static let summary = localized("Show what each player is playing right now.")

    enum Option {
        static let json = OptionSpec("json", help: localized("Print one JSON object per player, one a line, with the keys of 'recent --json'."))
    }

    static let options = [Option.json]

    static let discussion = localized("""
        LISTENED is how long the current track has actually been heard: pauses and seeks do not count.
        A track shows here while it plays and appears in 'broker-ctl recent' once its listen is recorded.

        Examples:
          broker-ctl now
          broker-ctl now --json | jq -r .title
        """)

    var printsJSON = false

    init(printsJSON: Bool = false) {
        self.printsJSON = printsJSON
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        printsJSON = arguments.contains(Option.json)
    }

    func run(in environment: RunEnvironment) async throws {
        let media = try await environment.connectToBroker().nowPlaying()
        environment.standardOutput.write(
            printsJSON
                ? NowOutput.jsonLines(media)
                : NowOutput.table(media, timeZone: environment.timeZone, width: environment.outputWidth))
    }
}
