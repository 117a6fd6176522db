import Testing
@testable import BrokerCore
import Clocks

/// "On this day" (issue 35): the listening day on the same date in earlier years — 04:00 to 04:00
/// local, whatever the time zone, with no date for 29 February in a year that has none.
@Suite("On this day: the same date in earlier years")
struct OnThisDayTests {
    static let hour = LocalTime.hour
    static let december3 = DailySuggestionTests.december3

    @Test("the same date's listening day, 04:00 to 04:00 local, in each year asked, nearest first")
    func sameDateInEarlierYears() throws {
        let auckland = LocalTime.fixed(hours: 13)
        // The listening day of 3 December 2026 in Auckland begins at 04:00 local, 15:00 UTC on the 2nd.
        let dayStart = Self.december3 - 9 * Self.hour
        let days = OnThisDay.days(sameDateAs: dayStart, localTime: auckland, years: 1...5)
        #expect(days.map(\.yearsAgo) == [1, 2, 3, 4, 5])
        #expect(days[0].since == dayStart - 365 * 24 * Self.hour && days[0].until == days[0].since + 24 * Self.hour)
        #expect(days[2].since == dayStart - (365 * 3 + 1) * 24 * Self.hour, "2024 was a leap year")
        #expect(OnThisDay.days(sameDateAs: dayStart, localTime: auckland, years: 3...3) == [days[2]])
    }

    @Test("29 February has a date only in leap years")
    func leapDay() throws {
        let leapDay = LocalTime.fixed(hours: 0).instant(atLocal: Microseconds(try #require(CivilDate(year: 2028, month: 2, day: 29)).daysSinceEpoch)
                                                            * LocalTime.day + 4 * Self.hour)
        #expect(OnThisDay.days(sameDateAs: leapDay, localTime: .fixed(hours: 0), years: 1...8).map(\.yearsAgo) == [4, 8])
    }

    @Test("a listening day begun after midnight UTC is named by its local date, west of UTC too")
    func westOfUTC() {
        let losAngeles = LocalTime.fixed(hours: -8)
        // 3 December 2026 04:00 in Los Angeles is 12:00 UTC.
        let dayStart = Self.december3 + 12 * Self.hour
        let lastYear = OnThisDay.days(sameDateAs: dayStart, localTime: losAngeles, years: 1...1)
        #expect(lastYear.map(\.since) == [dayStart - 365 * 24 * Self.hour])
    }
}
