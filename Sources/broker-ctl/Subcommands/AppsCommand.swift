import MediaDonationClient

/// `broker-ctl apps`: every app the broker has heard from, and who opted which out.
struct AppsCommand: Subcommand, Equatable {
    static let name = "apps"
    static let summary = "List the apps the broker has seen, with their listens and opt-outs."

    static let options = ListFormat.options
    static let usage = "broker-ctl apps [--json | --ids]"

    static let discussion = """
        OPTED OUT says who stopped an app's recording: 'by you' (broker-ctl opt-out) or 'by the app'
        itself. LAST SEEN is the local start of its newest listen. The ID is what --app and
        opt-out take.

        Examples:
          broker-ctl apps
          broker-ctl apps --ids
        """

    typealias Format = ListFormat

    var format = Format.table

    init(format: Format = .table) {
        self.format = format
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        format = try ListFormat(parsing: arguments)
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
