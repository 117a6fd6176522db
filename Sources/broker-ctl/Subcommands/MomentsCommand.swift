import FoundationEssentials
import MediaDonationClient
import Localization

/// `broker-ctl moments`: listening grouped into moments, newest first, each with its tracks.
struct MomentsCommand: Subcommand, Equatable {
    static let name = "moments"
    static let summary = localized("Show your listening grouped into moments, newest first.")
    static let limitRange = 1...200  // The D-Bus contract's bounds for Moments.
    static let gapRange: ClosedRange<Int64> = 60...(6 * 3600)

    enum Option {
        static let limit = OptionSpec("limit", value: "N", help: localized("Show at most N moments, 1 to 200 (default 20)."))
        static let since = OptionSpec("since", value: "WHEN", help: localized("Only moments that began at or after WHEN."))
        static let until = OptionSpec("until", value: "WHEN", help: localized("Only moments that began before WHEN."))
        static let gap = OptionSpec("gap", value: "DURATION", help: localized("The silence that ends a moment, 1m to 6h (default 30m)."))
        static let app = OptionSpec("app", value: "ID", help: localized("Only moments of this app's listens."))
        static let onThisDay = OptionSpec(
            "on-this-day", value: "WHEN", help: localized("Moments on the same date as WHEN's listening day, in earlier years."))
        static let json = OptionSpec("json", help: localized("Print one JSON object per moment, one a line, with its tracks."))
        static let format = OptionSpec(
            "format", value: OutputStyle.formatPlaceholder, help: localized("Print days of moments for a journal, or json as --json."))
    }

    static let options = [Option.limit, Option.since, Option.until, Option.onThisDay, Option.gap, Option.app, Option.json, Option.format,
                          OutputStyle.noArtOption]
    static let usage =
        "broker-ctl moments [--limit N] [--since WHEN] [--until WHEN | --on-this-day WHEN] [--gap DURATION] [--app ID] [--json | --format \(OutputStyle.formatPlaceholder)] [--no-art]"

    static let discussion = localized("""
        A moment is a run of listens, across apps, each starting no more than DURATION after the
        one before ended; it holds at most 13 listens and never crosses 04:00. Its title is the
        album or artist heard for most of it, the show of a podcast, or the part of the day.

        WHEN is a date or time in ISO-8601 (2026-11-29, 2026-11-29T14:05), a time that long ago
        (2h, 3d, 1w) or now, today or yesterday. DURATION is like 90s, 15m, 2h or 1h30m.
        Times are local. --on-this-day today shows what you listened to on today's date in
        earlier years, the nearest year first (not with --since or --until). In JSON, times are microseconds as on D-Bus, with the moment's keys and
        its tracks under "assets"; --json and --format json are the same.

        markdown and text read as a diary, oldest first: each listening day (04:00 to 04:00 local
        time, named by its date) under its date, each moment under its title and times, with its
        art and its listens (time, title, artists, album, app). Markdown escapes what players
        wrote, so a title prints as itself. --no-art leaves the art out. Nothing in range prints
        nothing, and says so on standard error. 'broker-ctl day' prints one day.

        Examples:
          broker-ctl moments --since yesterday
          broker-ctl moments --gap 15m --json | jq -r .title
          broker-ctl moments --since 1w --format markdown > week.md
          broker-ctl moments --on-this-day today
        """)

    var limit = 20
    var since: Date?
    var until: Date?
    /// Seconds.
    var gap: Int64?
    var appID: String?
    /// "On this day": the same date as this instant's listening day, in earlier years.
    var onThisDay: Date?
    var output = OutputStyle.standard

    init(limit: Int = 20, since: Date? = nil, until: Date? = nil, onThisDay: Date? = nil, gap: Int64? = nil, appID: String? = nil,
         output: OutputStyle = .standard) {
        self.limit = limit
        self.since = since
        self.until = until
        self.onThisDay = onThisDay
        self.gap = gap
        self.appID = appID
        self.output = output
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        if let limit = try arguments.number(of: Option.limit, in: Self.limitRange) { self.limit = limit }
        if let text = arguments.value(of: Option.gap) {
            do throws(InvalidTimeError) {
                let seconds = try TimeExpression.duration(from: text)
                guard Self.gapRange.contains(seconds) else { throw InvalidTimeError(text: text, reason: localized("a gap is 1m to 6h")) }
                gap = seconds
            } catch {
                // TRANSLATORS: {reason} says what is wrong with the value of --gap, which {text} is.
                throw UsageError(localized("--gap: {reason} ('{text}')", ["reason": error.reason, "text": text]))
            }
        }
        (since, until) = try arguments.range(since: Option.since, until: Option.until, context)
        onThisDay = try arguments.date(of: Option.onThisDay, context)
        if onThisDay != nil, since != nil || until != nil {
            throw UsageError(localized("--on-this-day chooses the days itself: give it without --since and --until"))
        }
        appID = try arguments.appID(of: Option.app)
        output = try OutputStyle(parsing: arguments, format: Option.format, json: Option.json)
    }

    func run(in environment: RunEnvironment) async throws(MediaBrokerError) {
        let broker = try environment.connectToBroker()
        let moments = try await broker.moments(
            since: since, until: until, limit: limit, gap: gap.map { .seconds($0) }, appID: appID, before: nil, onThisDay: onThisDay)
        let tracks = try await broker.tracks(of: moments)
        switch output.format {
        case .standard:
            environment.standardOutput.write(MomentsOutput.blocks(moments, tracks: tracks, timeZone: environment.timeZone))
        case .json:
            environment.standardOutput.write(MomentsOutput.jsonLines(moments, tracks: tracks))
        case .markdown, .text:
            let diary = Diary(moments: moments, tracks: tracks, timeZone: environment.timeZone, showsArt: output.showsArt)
            DiaryOutput.write(diary, as: output.format, ifEmpty: MomentsOutput.emptyMessage, in: environment)
        }
    }
}
