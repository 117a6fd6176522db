import MediaDonationClient
import Localization

/// `broker-ctl apps`: every app the broker has heard from, and who opted which out.
struct AppsCommand: Subcommand, Equatable {
    static let name = "apps"
    static let summary = localized("List the apps the broker has seen, with their listens and whether each is recorded.")

    static let options = ListFormat.options
    static let usage = "broker-ctl apps [--json | --ids]"

    static let discussion = localized("""
        The first line says what becomes of new apps (broker-ctl new-apps). RECORDED says, for each
        app: 'allowed' (by you: broker-ctl opt-in or a question's Record), 'yes' (a new app while
        new apps are recorded), 'asks first' or 'no' (a new app while new apps are asked about or
        ignored), 'opted out by you' (broker-ctl opt-out) or 'opted out by the app' itself. LAST
        SEEN is the local start of its newest listen. The ID is what --app, opt-in and opt-out take.

        Examples:
          broker-ctl apps
          broker-ctl apps --ids
        """)

    typealias Format = ListFormat

    var format = Format.table

    init(format: Format = .table) {
        self.format = format
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        format = try ListFormat(parsing: arguments)
    }

    func run(in environment: RunEnvironment) async throws {
        let broker = try environment.connectToBroker()
        let apps = try await broker.apps()
        let output: String
        switch format {
        case .table:
            let mode = try await broker.newApps()
            output = NewAppsCommand.sentence(mode) + "\n"
                + AppsOutput.table(apps, newApps: mode, timeZone: environment.timeZone, width: environment.outputWidth)
        case .json: output = AppsOutput.jsonLines(apps)
        case .ids: output = AppsOutput.ids(apps)
        }
        environment.standardOutput.write(output)
    }
}
