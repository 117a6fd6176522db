import MediaDonationClient

/// `broker-ctl apps`: every app the broker has heard from, and who opted which out.
struct AppsCommand: Subcommand, Equatable {
    static let name = "apps"
    static let summary = "List the apps the broker has seen, with their listens and opt-outs."

    enum Option {
        static let json = OptionSpec("json", help: "Print one JSON object per app, one a line.")
        static let ids = OptionSpec("ids", help: "Print only the app ids, one a line (for shell completion).")
    }

    static let options = [Option.json, Option.ids]
    static let usage = "broker-ctl apps [--json | --ids]"

    static let discussion = """
        OPTED OUT says who stopped an app's recording: 'by you' (broker-ctl opt-out) or 'by the app'
        itself. LAST SEEN is the local start of its newest listen. The ID is what --app and
        opt-out take.

        Examples:
          broker-ctl apps
          broker-ctl apps --ids
        """

    enum Format: Equatable, Sendable {
        case table, json, ids
    }

    var format = Format.table

    init(format: Format = .table) {
        self.format = format
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        switch (arguments.contains(Option.json), arguments.contains(Option.ids)) {
        case (true, true): throw UsageError("--json and --ids cannot be used together")
        case (true, false): format = .json
        case (false, true): format = .ids
        case (false, false): format = .table
        }
    }

    func run(in environment: RunEnvironment) async throws {
        let apps = try await environment.connectToBroker().apps()
        let output: String
        switch format {
        case .table: output = AppsOutput.table(apps, timeZone: environment.timeZone, width: environment.outputWidth)
        case .json: output = AppsOutput.jsonLines(apps)
        case .ids: output = AppsOutput.ids(apps)
        }
        environment.standardOutput.write(output)
    }
}
