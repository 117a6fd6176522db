import FoundationEssentials
import MediaDonationClient
import Localization

/// `broker-ctl recent`: what the person listened to, newest first.
struct RecentCommand: Subcommand, Equatable {
    static let name = "recent"
    static let summary = localized("Show what you listened to, newest first.")
    static let limitRange = 1...1000  // The D-Bus contract's bounds for RecentMedia.

    enum Option {
        static let limit = OptionSpec("limit", value: "N", help: localized("Show at most N listens, 1 to 1000 (default 50)."))
        static let since = OptionSpec("since", value: "WHEN", help: localized("Only listens that began at or after WHEN."))
        static let until = OptionSpec("until", value: "WHEN", help: localized("Only listens that began before WHEN."))
        static let app = OptionSpec("app", value: "ID", help: localized("Only listens in this app, by the id the APP column shows."))
        static let json = OptionSpec("json", help: localized("Print one JSON object per listen, one a line, for scripts."))
        static let format = OptionSpec(
            "format", value: OutputStyle.formatPlaceholder, help: localized("Print days of listens for a journal, or json as --json."))
    }

    static let options = [Option.limit, Option.since, Option.until, Option.app, Option.json, Option.format, OutputStyle.noArtOption]
    static let usage =
        "broker-ctl recent [--limit N] [--since WHEN] [--until WHEN] [--app ID] [--json | --format \(OutputStyle.formatPlaceholder)] [--no-art]"

    static let discussion = localized("""
        WHEN is a date or time in ISO-8601, read as local time unless it ends in Z or an offset
        (2026-11-29, 2026-11-29T14:05, 2026-11-29T14:05:07+01:00); a time that long ago (90s, 15m,
        2h, 3d, 1w, 1h30m); or now, today or yesterday (local midnight).

        Times in the table are local. In JSON, started, ended, listened and length are
        microseconds (since the epoch for instants), as on D-Bus; started_iso is started in UTC.
        --json and --format json are the same.

        markdown and text read as a diary, oldest first: each listening day (04:00 to 04:00 local
        time, so a listen at 01:30 is on the evening before) under its date, with its listens
        (time, title, artists, album, app) and their art, shown once for listens in a row with
        the same. Markdown escapes what players wrote. --no-art leaves the art out. Nothing in
        range prints nothing, and says so on standard error.
        """)

    var limit = 50
    var since: Date?
    var until: Date?
    var appID: String?
    var output = OutputStyle.standard

    init(limit: Int = 50, since: Date? = nil, until: Date? = nil, appID: String? = nil, output: OutputStyle = .standard) {
        self.limit = limit
        self.since = since
        self.until = until
        self.appID = appID
        self.output = output
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        if let limit = try arguments.number(of: Option.limit, in: Self.limitRange) { self.limit = limit }
        (since, until) = try arguments.range(since: Option.since, until: Option.until, context)
        appID = try arguments.appID(of: Option.app)
        output = try OutputStyle(parsing: arguments, format: Option.format, json: Option.json)
    }

    func run(in environment: RunEnvironment) async throws(MediaBrokerError) {
        let broker = try environment.connectToBroker()
        let media = try await broker.recentMedia(
            since: since, until: until, limit: limit, appID: appID, before: nil)
        switch output.format {
        case .standard:
            environment.standardOutput.write(RecentOutput.table(media, timeZone: environment.timeZone, width: environment.outputWidth))
        case .json:
            environment.standardOutput.write(RecentOutput.jsonLines(media))
        case .markdown, .text:
            let diary = Diary(listens: media, timeZone: environment.timeZone, showsArt: output.showsArt)
            DiaryOutput.write(diary, as: output.format, ifEmpty: RecentOutput.emptyMessage, in: environment)
        }
    }
}
