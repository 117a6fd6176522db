import Testing
@testable import BrokerCore
import Clocks

/// The daily journaling suggestion (issue 35): it comes at the person's local time, also across a
/// change of clocks, and offers the day's most listened moment worth writing about, or the same
/// date in an earlier year ("On this day").
@Suite("Daily suggestion: when it comes and what it offers")
struct DailySuggestionTests {
    static let minute: Microseconds = 60_000_000
    static let hour = LocalTime.hour
    /// 2026-12-03 00:00 UTC.
    static let december3: Microseconds = 1_796_256_000_000_000

    static func moment(at started: Microseconds, listens: Int, minutesEach: Int64, app: String = "mpv") -> Moment {
        let assets = (0..<listens).map { index in
            MediaAsset(id: started / 1_000_000 + Int64(index), title: "Track \(index)", artists: ["Artist"], appID: app,
                       started: started + Int64(index) * minutesEach * minute, ended: started + Int64(index + 1) * minutesEach * minute,
                       listened: minutesEach * minute, source: .mpris)
        }
        return Moment(assets[...], localTime: .fixed(hours: 0))
    }

    @Test("it comes at the next local occurrence of its time: later today, or tomorrow once passed")
    func nextTimeIsTheNextLocalOccurrence() throws {
        let nine = try #require(TimeOfDay(parsing: "21:00"))
        let berlin = LocalTime.fixed(hours: 1)
        #expect(DailySuggestion.nextTime(after: Self.december3 + 10 * Self.hour, at: nine, localTime: berlin)
                == Self.december3 + 20 * Self.hour, "21:00 in UTC+1 is 20:00 UTC")
        #expect(DailySuggestion.nextTime(after: Self.december3 + 20 * Self.hour, at: nine, localTime: berlin)
                == Self.december3 + 44 * Self.hour, "at the very instant, the next is tomorrow's: missed days are not made up")
        let auckland = LocalTime.fixed(hours: 13)
        #expect(DailySuggestion.nextTime(after: Self.december3, at: nine, localTime: auckland) == Self.december3 + 8 * Self.hour)
    }

    @Test("across a change of clocks 21:00 stays 21:00 local")
    func acrossAChangeOfClocks() throws {
        let nine = try #require(TimeOfDay(parsing: "21:00"))
        // Summer time begins at 01:00 UTC on the 4th: UTC+1 before, UTC+2 after.
        let change = Self.december3 + 25 * Self.hour
        let clocks = LocalTime { $0 < change ? Self.hour : 2 * Self.hour }
        let next = DailySuggestion.nextTime(after: Self.december3 + 21 * Self.hour, at: nine, localTime: clocks)
        #expect(next == Self.december3 + 24 * Self.hour + 19 * Self.hour, "21:00 in UTC+2 is 19:00 UTC")
    }

    @Test("the day's most listened moment worth writing about is chosen; a small one is not")
    func choosesTheMostListenedWorthyMoment() {
        let morning = Self.moment(at: Self.december3 + 8 * Self.hour, listens: 4, minutesEach: 4)
        let evening = Self.moment(at: Self.december3 + 19 * Self.hour, listens: 5, minutesEach: 5)
        let brief = Self.moment(at: Self.december3 + 12 * Self.hour, listens: 2, minutesEach: 30)
        let short = Self.moment(at: Self.december3 + 13 * Self.hour, listens: 6, minutesEach: 1)
        #expect(DailySuggestion.choose(today: [morning, evening, brief, short]) == DailySuggestion.Choice(moment: evening, yearsAgo: 0))
        #expect(DailySuggestion.choose(today: [brief, short]) == nil, "two listens, or six minutes, are not worth a suggestion")
        #expect(!DailySuggestion.isWorthWriting(brief) && !DailySuggestion.isWorthWriting(short) && DailySuggestion.isWorthWriting(morning))
    }

    @Test("a day with nothing worth writing offers the same date in the nearest earlier year that has a moment")
    func onThisDay() {
        let lastYear = Self.moment(at: Self.december3 - 365 * 24 * Self.hour, listens: 1, minutesEach: 40)
        let twoYearsAgo = Self.moment(at: Self.december3 - 730 * 24 * Self.hour, listens: 3, minutesEach: 5)
        let threeYearsAgo = Self.moment(at: Self.december3 - 1096 * 24 * Self.hour, listens: 9, minutesEach: 5)
        let choice = DailySuggestion.choose(today: [], earlier: [1: [lastYear], 3: [threeYearsAgo], 2: [twoYearsAgo]])
        #expect(choice == DailySuggestion.Choice(moment: twoYearsAgo, yearsAgo: 2), "last year's is too small; two years ago comes before three")
        #expect(DailySuggestion.choose(today: [], earlier: [:]) == nil)
    }

    @Test("dates go to days since 1970 and back")
    func civilDates() throws {
        #expect(try #require(CivilDate(year: 1970, month: 1, day: 1)).daysSinceEpoch == 0)
        #expect(try #require(CivilDate(year: 2026, month: 12, day: 3)).daysSinceEpoch == Int(Self.december3 / LocalTime.day))
        for days in [-800, -1, 0, 59, 60, 11_016, 20_790, 50_000] {
            let date = CivilDate(daysSinceEpoch: days)
            #expect(CivilDate(year: date.year, month: date.month, day: date.day)?.daysSinceEpoch == days)
        }
        #expect(CivilDate(year: 2027, month: 2, day: 29) == nil && CivilDate(year: 2026, month: 13, day: 1) == nil)
    }
}
