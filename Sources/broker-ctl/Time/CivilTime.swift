import Clocks

/// A date and wall-clock time in the proleptic Gregorian calendar, without a zone.
///
/// This is the arithmetic `Calendar` would do; done by hand because FoundationEssentials alone
/// cannot load time zones. The days are counted by `Clocks`' ``CivilDate``.
struct CivilTime: Equatable, Sendable {
    var year: Int
    var month: Int
    var day: Int
    var hour = 0
    var minute = 0
    var second = 0
    var nanosecond = 0

    init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
    }

    /// The reading `secondsSinceEpoch` seconds after 1970-01-01 00:00:00 on the same clock.
    init(secondsSinceEpoch: Int64, nanosecond: Int = 0) {
        let (days, secondOfDay) = Self.floorDivision(secondsSinceEpoch, 86_400)
        let date = CivilDate(daysSinceEpoch: Int(days))
        (year, month, day) = (date.year, date.month, date.day)
        hour = Int(secondOfDay / 3600)
        minute = Int(secondOfDay % 3600 / 60)
        second = Int(secondOfDay % 60)
        self.nanosecond = nanosecond
    }

    /// Seconds from 1970-01-01 00:00:00 to this reading on the same clock, ignoring the nanoseconds.
    /// A day past its month's end counts on into the next month, as `days_from_civil` does.
    var secondsSinceEpoch: Int64 {
        Int64(CivilDate.daysSinceEpoch(year: year, month: month, day: day)) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Midnight at the start of this reading's day.
    var startOfDay: CivilTime {
        CivilTime(year: year, month: month, day: day)
    }

    /// The same time of day `days` days later (earlier when negative).
    func addingDays(_ days: Int) -> CivilTime {
        var moved = CivilTime(secondsSinceEpoch: secondsSinceEpoch + Int64(days) * 86_400)
        moved.nanosecond = nanosecond
        return moved
    }

    static func numberOfDays(inMonth month: Int, ofYear year: Int) -> Int {
        CivilDate.days(inMonth: month, of: year)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }
}

extension CivilTime {
    /// `2026-11-29 14:05`, as the `recent` table shows times.
    var minuteText: String {
        dateText + " " + clockText
    }

    /// `2026-11-29`: the date alone, ISO-8601.
    var dateText: String {
        "\(zeroPadded(year, 4))-\(zeroPadded(month, 2))-\(zeroPadded(day, 2))"
    }

    /// `14:05`: the time of day to the minute.
    var clockText: String {
        "\(zeroPadded(hour, 2)):\(zeroPadded(minute, 2))"
    }

    /// `2026-11-29T14:05:07Z`: ISO-8601 to the second, for a reading that is in UTC.
    var utcISO8601Text: String {
        "\(zeroPadded(year, 4))-\(zeroPadded(month, 2))-\(zeroPadded(day, 2))T"
            + "\(zeroPadded(hour, 2)):\(zeroPadded(minute, 2)):\(zeroPadded(second, 2))Z"
    }
}

private func zeroPadded(_ number: Int, _ width: Int) -> String {
    let digits = String(number.magnitude)
    let padding = String(repeating: "0", count: max(0, width - digits.count))
    return (number < 0 ? "-" : "") + padding + digits
}
