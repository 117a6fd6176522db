import FoundationEssentials
import MediaDonationClient
import Localization

/// `broker-ctl day`: one listening day's moments, ready to append to a daily note.
struct DayCommand: Subcommand, Equatable {
    static let name = "day"
    static let summary = localized("Print one day's moments for a journal, in Markdown or plain text.")
    static let pageSize = 200  // The D-Bus contract's largest page of moments.

    enum Option {
        static let format = OptionSpec("format", value: OutputStyle.formatPlaceholder, help: localized("markdown or text for a note, or json (default text)."))
    }

    static let options = [Option.format, OutputStyle.noArtOption]
    static let arguments = [
        ArgumentSpec(name: "DATE", isOptional: true, help: localized("The day: today (default), yesterday, 2026-12-02, or a WHEN in it."))
    ]

    static let discussion = localized("""
        A listening day runs from 04:00 local time to 04:00 the next morning, as moments are cut:
        a night out belongs to the day it began, and no moment is split between two days. So
        before 04:00, today is still the day before. DATE is today, yesterday, an ISO-8601 date
        such as 2026-12-02 (that date's day), or any WHEN of 'broker-ctl moments' (3d,
        2026-12-02T01:30): the day that holds that time.

        markdown and text print the day under its date, then each moment, oldest first, under its
        title and times, with its art and listens, as 'moments --format' does; json prints the
        day's moments as 'moments --json' does. --no-art leaves the art out. A day without
        moments prints nothing to standard output, so appending it changes no note, and says so
        on standard error; the exit status is 0 either way.

        Examples:
          broker-ctl day
          broker-ctl day --format markdown >> ~/Notes/Daily/$(date +%F).md
          broker-ctl day yesterday --format markdown >> ~/Notes/Daily/$(date -d yesterday +%F).md
          broker-ctl day 2026-12-02 --format json | jq -r .title
        """)

    var day: ListeningDay
    var output = OutputStyle.text

    init(day: ListeningDay, output: OutputStyle = .text) {
        self.day = day
        self.output = output
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        day = try Self.day(named: arguments.positionals.first ?? "today", context: context)
        output = try OutputStyle(parsing: arguments, format: Option.format, otherwise: .text)
    }

    /// The listening day DATE names. `today` and `yesterday` count listening days, not
    /// midnights, so at 01:30 `today` is the evening still going on.
    static func day(named text: String, context: ParseContext) throws(UsageError) -> ListeningDay {
        let zone = context.timeZone
        let current = ListeningDay(containing: context.now, in: zone)
        switch text.lowercased() {
        case "today": return current
        case "yesterday": return current.addingDays(-1)
        default: break
        }
        let instant: Date
        do throws(InvalidTimeError) {
            instant = try TimeExpression.date(from: text, now: context.now, timeZone: zone)
        } catch {
            // TRANSLATORS: DATE is the argument's name in the usage line, kept as it is; {error} says what is wrong with it.
            throw UsageError(localized("DATE: {error}", ["error": error.description]))
        }
        // A date alone (2026-12-02) reads as its local midnight, which is still the night of the
        // day before: it names its own date instead.
        let bytes = Array(text.utf8)
        let isDateAlone = bytes.count == 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
        return isDateAlone ? ListeningDay(zone.civilTime(at: instant)) : ListeningDay(containing: instant, in: zone)
    }

    func run(in environment: RunEnvironment) async throws(MediaBrokerError) {
        let broker = try environment.connectToBroker()
        let zone = environment.timeZone
        let moments = try await Self.moments(of: broker, from: day.start(in: zone), to: day.end(in: zone))
        let tracks = try await broker.tracks(of: moments)
        switch output.format {
        case .json:
            environment.standardOutput.write(MomentsOutput.jsonLines(moments, tracks: tracks))
        case .standard, .markdown, .text:
            // A day has no layout of its own: what no --format names is text.
            let diary = Diary(moments: moments, tracks: tracks, timeZone: zone, showsArt: output.showsArt)
            DiaryOutput.write(diary, as: output.format, ifEmpty: localized("No moments on {date}.", ["date": day.isoText]) + "\n", in: environment)
        }
    }

    /// Every moment that began in the range, newest first, a page at a time: a day rarely holds
    /// more than a page, but a short gap can cut one into many moments.
    private static func moments(of broker: any BrokerService, from start: Date, to end: Date) async throws(MediaBrokerError) -> [Moment] {
        var moments: [Moment] = []
        var last: String?
        while true {
            let page = try await broker.moments(since: start, until: end, limit: pageSize, gap: nil, appID: nil, before: last, onThisDay: nil)
            moments += page
            guard page.count == pageSize, let next = page.last?.id, next != last else { return moments }
            last = next
        }
    }
}
