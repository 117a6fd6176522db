import FoundationEssentials
import MediaDonationClient
import Localization

/// `broker-ctl pause [DURATION | --until TIME]`: "don't record for a while".
struct PauseCommand: Subcommand, Equatable {
    static let name = "pause"
    static let summary = localized("Stop recording for a while, until a time, or until you resume.")

    enum Option {
        static let until = OptionSpec("until", value: "TIME", help: localized("Pause until TIME: HH:MM (its next occurrence), tomorrow, or ISO-8601 such as 2026-12-24T18:00."))
        static let json = OptionSpec("json", help: localized("Print {\"paused\": true, \"paused_until\": …}."))
    }

    static let options = [Option.until, Option.json]
    static let arguments = [
        ArgumentSpec(name: "DURATION", isOptional: true, help: localized("Pause for this long: 30m, 1h, 1h30m, 2d (at most a year)."))
    ]
    static let usage = "broker-ctl pause [DURATION | --until TIME] [--json]"

    static let discussion = localized("""
        While paused nothing is recorded from any player or app: a listen in progress is
        discarded, and donations are refused. What is kept can still be read. The pause survives
        a restart of the broker and ends by itself at its time; without DURATION or --until it
        lasts until `broker-ctl resume`. `tomorrow` is 04:00 tomorrow, local time, when a
        listening day begins. Media (`broker-ctl media off`) stays the master switch.

        Examples:
          broker-ctl pause 30m
          broker-ctl pause --until 23:00
          broker-ctl pause --until tomorrow
          broker-ctl pause
        """)

    enum Length: Equatable, Sendable {
        case lasting(Duration)
        case until(Date)
        case untilResumed
    }

    var length: Length
    var printsJSON = false

    init(length: Length = .untilResumed, printsJSON: Bool = false) {
        self.length = length
        self.printsJSON = printsJSON
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        printsJSON = arguments.contains(Option.json)
        switch (arguments.positionals.first, arguments.value(of: Option.until)) {
        case (nil, nil):
            length = .untilResumed
        case (let text?, nil):
            let seconds: Int64
            do throws(InvalidTimeError) {
                seconds = try TimeExpression.duration(from: text)
            } catch {
                // TRANSLATORS: {problem} is why DURATION was not understood, such as "expected a duration like 90s, 15m, 2h or 1h30m".
                throw UsageError(localized("DURATION: {problem}", ["problem": "\(error)"]))
            }
            guard seconds > 0 else { throw UsageError(localized("DURATION must be longer than nothing, not '{text}'", ["text": text])) }
            length = .lasting(.seconds(seconds))
        case (nil, let text?):
            length = .until(try Self.end(from: text, context: context))
        case (.some, .some):
            throw UsageError(localized("give DURATION or --until, not both"))
        }
    }

    /// `--until`'s time: `HH:MM` (today, or tomorrow once it has passed), `tomorrow` (04:00), or ISO-8601.
    static func end(from text: String, context: ParseContext) throws(UsageError) -> Date {
        let zone = context.timeZone
        let today = zone.civilTime(at: context.now)
        if text.lowercased() == "tomorrow" {
            var morning = today.startOfDay.addingDays(1)
            morning.hour = 4
            return zone.instant(at: morning)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
           let hour = Int(parts[0]), let minute = Int(parts[1]) {
            guard hour < 24, minute < 60 else { throw UsageError(localized("--until: a time of day must be 00:00 to 23:59, not '{text}'", ["text": text])) }
            var time = today.startOfDay
            time.hour = hour
            time.minute = minute
            let instant = zone.instant(at: time)
            return instant > context.now ? instant : zone.instant(at: time.addingDays(1))
        }
        guard text.first?.isNumber == true, text.contains("-") else {
            throw UsageError(localized("--until: expected HH:MM, tomorrow, or ISO-8601 such as 2026-12-24T18:00, not '{text}'", ["text": text]))
        }
        let end: Date
        do throws(InvalidTimeError) {
            end = try TimeExpression.date(from: text, now: context.now, timeZone: zone)
        } catch {
            // TRANSLATORS: {problem} is why the time was not understood, such as "month must be 01 to 12".
            throw UsageError(localized("--until: {problem}", ["problem": "\(error)"]))
        }
        guard end > context.now else { throw UsageError(localized("--until: {time} has passed", ["time": text])) }
        return end
    }

    func run(in environment: RunEnvironment) async throws(MediaBrokerError) {
        let broker = try environment.connectToBroker()
        switch length {
        case .untilResumed: try await broker.pause(for: nil, until: nil)
        case .lasting(let duration): try await broker.pause(for: duration, until: nil)
        case .until(let date): try await broker.pause(for: nil, until: date)
        }
        let pause = try await broker.currentPause()
        environment.standardOutput.write(printsJSON ? PauseOutput.json(pause) : PauseOutput.text(pause, timeZone: environment.timeZone))
    }
}
