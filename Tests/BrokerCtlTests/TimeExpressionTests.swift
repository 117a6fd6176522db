import Foundation
import Testing
@testable import broker_ctl

@Suite struct TimeExpressionTests {
    private func when(_ text: String, in timeZone: TimeZone = utc) throws(InvalidTimeError) -> Date {
        try TimeExpression.date(from: text, now: fixedNow, timeZone: timeZone)
    }

    private func reason(_ text: String) -> String? {
        do {
            _ = try when(text)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test(arguments: [
        ("2026-11-29", "2026-11-29T00:00:00+02:00"),
        ("2026-11-29T14:05", "2026-11-29T14:05:00+02:00"),
        ("2026-11-29t14:05", "2026-11-29T14:05:00+02:00"),
        ("2026-11-29 14:05", "2026-11-29T14:05:00+02:00"),
        ("2026-11-29T14:05:07", "2026-11-29T14:05:07+02:00"),
        ("2026-11-29T14:05:07.25", "2026-11-29T14:05:07.250+02:00"),
        ("2026-02-28T23:59:59.999", "2026-02-28T23:59:59.999+02:00"),
    ])
    func isoWithoutAnOffsetIsLocalTime(_ text: String, expected: String) throws {
        // Within a microsecond: Foundation adds fractions of a second with other rounding.
        #expect(abs(try when(text, in: plusTwo).timeIntervalSince(instant(expected))) < 1e-6)
    }

    @Test(arguments: [
        ("2026-11-29T14:05Z", "2026-11-29T14:05:00Z"),
        ("2026-11-29T14:05:07z", "2026-11-29T14:05:07Z"),
        ("2026-11-29T14:05:07+01:00", "2026-11-29T13:05:07Z"),
        ("2026-11-29T14:05:07-05:30", "2026-11-29T19:35:07Z"),
        ("2026-11-29T14:05:07+0100", "2026-11-29T13:05:07Z"),
        ("2026-11-29T14:05+09", "2026-11-29T05:05:00Z"),
        ("2026-11-29T14:05:07.123456Z", "2026-11-29T14:05:07.123Z"),
    ])
    func isoWithAnOffsetIgnoresTheLocalZone(_ text: String, expected: String) throws {
        // Foundation's oracle parses milliseconds only.
        #expect(abs(try when(text, in: plusTwo).timeIntervalSince(instant(expected))) < 0.001)
    }

    @Test func fractionalSecondsKeepMicroseconds() throws {
        let parsed = try when("2026-11-29T14:05:07.123456Z")
        #expect(abs(parsed.timeIntervalSince1970 - 1_795_961_107.123456) < 1e-6)
    }

    @Test func leapDayExistsOnlyInLeapYears() throws {
        #expect(try when("2028-02-29") == instant("2028-02-29T00:00:00Z"))
        #expect(reason("2026-02-29") == "that month has days 01 to 28")
        #expect(reason("2100-02-29") == "that month has days 01 to 28")
        #expect(try when("2000-02-29") == instant("2000-02-29T00:00:00Z"))
    }

    @Test(arguments: [
        ("90s", 90.0), ("15m", 900), ("2h", 7200), ("3d", 259_200), ("1w", 604_800), ("1h30m", 5400),
        ("1d2h3m4s", 93_784), ("0s", 0),
    ])
    func durationsMeanThatLongAgo(_ text: String, seconds: Double) throws {
        #expect(try when(text) == fixedNow.addingTimeInterval(-seconds))
    }

    @Test func nowIsNow() throws {
        #expect(try when("now") == fixedNow)
        #expect(try when("NOW") == fixedNow)
    }

    @Test func todayAndYesterdayAreLocalMidnights() throws {
        // 14:05 UTC is 16:05 at +02:00, so the local day is still the 29th.
        #expect(try when("today", in: plusTwo) == instant("2026-11-29T00:00:00+02:00"))
        #expect(try when("yesterday", in: plusTwo) == instant("2026-11-28T00:00:00+02:00"))
        let lateInTheEvening = TimeZone(secondsFromGMT: 11 * 3600)!  // 01:05 on the 30th there
        #expect(try when("today", in: lateInTheEvening) == instant("2026-11-30T00:00:00+11:00"))
    }

    @Test func yesterdayIsTheCalendarDayBeforeEvenAcrossADaylightSavingChange() throws {
        let dayAfterSummerTimeEnds = Date(timeIntervalSince1970: 1_793_007_000)  // 2026-10-26 10:30 CET
        let yesterday = try TimeExpression.date(from: "yesterday", now: dayAfterSummerTimeEnds, timeZone: berlin)
        #expect(yesterday == instant("2026-10-25T00:00:00+02:00"))
    }

    @Test func localTimesFollowDaylightSavingTime() throws {
        #expect(try when("2026-07-01T12:00", in: berlin) == instant("2026-07-01T12:00:00+02:00"))
        #expect(try when("2026-12-01T12:00", in: berlin) == instant("2026-12-01T12:00:00+01:00"))
    }

    @Test func aTimeThatHappensTwiceMeansTheFirst() throws {
        // Berlin's clocks go from 03:00 back to 02:00 on 2026-10-25.
        #expect(try when("2026-10-25T02:30", in: berlin) == instant("2026-10-25T02:30:00+02:00"))
    }

    @Test func aTimeThatNeverHappensMovesPastTheGap() throws {
        // Berlin's clocks jump from 02:00 to 03:00 on 2026-03-29.
        #expect(try when("2026-03-29T02:30", in: berlin) == instant("2026-03-29T03:30:00+02:00"))
    }

    @Test(arguments: ["3x", "x", "", "tomorrow", "2 h", "h2", "1.5h", "-2h", "2H"])
    func unrecognisedTextNamesTheFormsExpected(_ text: String) {
        #expect(reason(text) == "expected ISO-8601 like 2026-11-29T14:05 or a duration like 2h, 3d")
    }

    @Test func theMessageQuotesTheText() {
        #expect(throws: InvalidTimeError(text: "3x", reason: InvalidTimeError.expectedForms)) { try when("3x") }
        #expect(
            InvalidTimeError(text: "3x", reason: InvalidTimeError.expectedForms).description
                == "invalid time '3x': expected ISO-8601 like 2026-11-29T14:05 or a duration like 2h, 3d")
    }

    @Test func aBareNumberAsksForAUnit() {
        #expect(reason("90") == "a number needs a unit, like 90s, 15m, 2h, 3d or 1w")
    }

    @Test func anOverlongDurationIsRefusedNotOverflowed() {
        #expect(reason("99999999999999999w") == "that duration is too long")
        #expect(reason("9999999999999999999s") == "that duration is too long")
    }

    @Test(arguments: [
        ("2026-13-01", "month must be 01 to 12"),
        ("2026-00-10", "month must be 01 to 12"),
        ("2026-04-31", "that month has days 01 to 30"),
        ("2026-11-00", "that month has days 01 to 30"),
        ("2026-11-29T24:00", "time of day must be 00:00 to 23:59"),
        ("2026-11-29T12:60", "time of day must be 00:00 to 23:59"),
        ("2026-11-29T12:00:60", "seconds must be 00 to 59"),
        ("2026-11-29T12:00+25:00", "a UTC offset must be like +01:00 or -05:30"),
    ])
    func outOfRangeFieldsSayWhichField(_ text: String, expected: String) {
        #expect(reason(text) == expected)
    }

    @Test(arguments: [
        "2026-1-29", "2026-11-29T", "2026-11-29T1:05", "2026-11-29T14", "2026-11-29T14:05:07.",
        "2026-11-29T14:05Zjunk", "2026-11-29Z", "2026-11-29T14:05 +01:00", "2026/11/29",
    ])
    func malformedISOShowsExamples(_ text: String) {
        let reason = reason(text)
        #expect(reason?.hasPrefix("expected ISO-8601 like 2026-11-29") == true, "\(text): \(reason ?? "parsed")")
    }
}

@Suite struct CivilTimeTests {
    @Test(arguments: [
        (Int64(0), CivilTime(year: 1970, month: 1, day: 1)),
        (951_782_400, CivilTime(year: 2000, month: 2, day: 29)),
        (1_795_961_107, CivilTime(year: 2026, month: 11, day: 29, hour: 14, minute: 5, second: 7)),
        (-1, CivilTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59)),
        (4_107_542_400, CivilTime(year: 2100, month: 3, day: 1)),
    ] as [(Int64, CivilTime)])
    func secondsAndCivilTimesRoundTrip(_ seconds: Int64, civil: CivilTime) {
        #expect(CivilTime(secondsSinceEpoch: seconds) == civil)
        #expect(civil.secondsSinceEpoch == seconds)
    }

    @Test func everyDayOfFourHundredYearsRoundTrips() {
        var previous = CivilTime(secondsSinceEpoch: -86_400)
        for day in Int64(0)..<146_097 {
            let civil = CivilTime(secondsSinceEpoch: day * 86_400)
            #expect(civil.secondsSinceEpoch == day * 86_400)
            let isNextDay =
                civil.day == previous.day + 1
                || (civil.day == 1 && (civil.month == previous.month % 12 + 1))
            #expect(isNextDay, "\(civil) does not follow \(previous)")
            previous = civil
        }
    }

    @Test func systemTimeZoneAgreesWithFoundation() {
        let instants = [fixedNow, instant("2026-07-01T12:00:00Z"), instant("1999-01-01T00:00:00Z")]
        for instant in instants {
            #expect(SystemTimeZone().secondsFromUTC(at: instant) == TimeZone.current.secondsFromGMT(for: instant))
        }
    }
}
