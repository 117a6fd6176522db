import FoundationEssentials
import MediaDonationClient
import Localization

/// `broker-ctl purge`: deletes listens for good, by app, by time range or all of them.
struct PurgeCommand: Subcommand, Equatable {
    static let name = "purge"
    static let summary = localized("Delete listens for good: of one app, from a time range, or all.")

    enum Option {
        static let app = OptionSpec("app", value: "ID", help: localized("Delete every listen of this app."))
        static let since = OptionSpec("since", value: "WHEN", help: localized("Delete listens that began at or after WHEN."))
        static let until = OptionSpec("until", value: "WHEN", help: localized("Delete listens that began before WHEN."))
        static let all = OptionSpec("all", help: localized("Delete the whole history."))
        static let yes = OptionSpec("yes", short: "y", help: localized("Delete without asking."))
    }

    static let options = [Option.app, Option.since, Option.until, Option.all, Option.yes]
    static let usage = "broker-ctl purge (--app ID | --since WHEN [--until WHEN] | --until WHEN | --all) [--yes]"

    static let discussion = localized("""
        Give exactly one scope: --app, a time range, or --all. A range is --since, --until or both
        (since inclusive, until exclusive); --until alone deletes everything before it. WHEN is as
        for 'broker-ctl recent'.

        On a terminal you are asked to confirm unless --yes is given; answering anything but y, yes
        or their word in your language (the question shows its letter) deletes nothing (exit status
        1). When standard input is not a terminal, --yes is required (otherwise a usage error, exit
        status 64). Prints how many listens were deleted.

        Examples:
          broker-ctl purge --since 2h
          broker-ctl purge --since 2026-11-01 --until 2026-11-08
          broker-ctl purge --app spotify --yes
        """)

    var scope: PurgeScope
    var assumeYes = false

    init(scope: PurgeScope, assumeYes: Bool = false) {
        self.scope = scope
        self.assumeYes = assumeYes
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        let app = try arguments.appID(of: Option.app)
        let (since, until) = try arguments.range(since: Option.since, until: Option.until, context)
        let all = arguments.contains(Option.all)
        let hasRange = since != nil || until != nil
        let scopes = [app != nil, hasRange, all].filter { $0 }.count
        guard scopes == 1 else {
            throw UsageError(
                scopes == 0
                    ? localized("say what to delete: --app ID, --since/--until WHEN, or --all")
                    : localized("give only one of --app, --since/--until and --all"))
        }
        if let app {
            scope = .app(app)
        } else if hasRange {
            scope = .range(since: since, until: until)
        } else {
            scope = .all
        }
        assumeYes = arguments.contains(Option.yes)
    }

    func run(in environment: RunEnvironment) async throws {
        try Confirmation.obtain(
            Self.question(for: scope, timeZone: environment.timeZone), assumeYes: assumeYes,
            subcommand: Self.name, in: environment)
        let removed = try await environment.connectToBroker().purge(scope)
        environment.standardOutput.write(localizedPlural("Deleted {count} listen.", "Deleted {count} listens.", count: removed) + "\n")
    }

    /// What the confirmation asks, in the person's local time.
    static func question(for scope: PurgeScope, timeZone: some UTCOffsetRule) -> String {
        func local(_ date: Date) -> String { timeZone.civilTime(at: date).localeMinuteText }
        switch scope {
        case .app(let id):
            return localized("Delete all listens of {app} for good?", ["app": id])
        case .site(let site):
            return localized("Delete all listens on {site} for good?", ["site": site])
        case .range(let since?, let until?):
            return localized(
                "Delete all listens that began from {since} until {until} (local time) for good?",
                ["since": local(since), "until": local(until)])
        case .range(let since?, nil):
            return localized("Delete all listens that began at or after {time} (local time) for good?", ["time": local(since)])
        case .range(nil, let until?):
            return localized("Delete all listens that began before {time} (local time) for good?", ["time": local(until)])
        case .range(nil, nil), .all:
            return localized("Delete your whole listening history for good?")
        }
    }
}
