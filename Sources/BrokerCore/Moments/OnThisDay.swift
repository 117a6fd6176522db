import Clocks

/// "On this day" (issue 35): the listening days on the same date as a given one in earlier years —
/// what the daily suggestion offers when today has nothing, and what `Moments`' `on_this_day`
/// filter reads. Pure.
package enum OnThisDay {
    /// A listening day (04:00 to 04:00, local) `yearsAgo` years before.
    package struct Day: Sendable, Equatable {
        package var yearsAgo: Int
        package var since: Microseconds
        package var until: Microseconds
    }

    /// For each of `years` (years before, counted from 1), the listening day on the same date as the
    /// listening day beginning at `dayStart`, nearest first. A 29 February has no date in a year
    /// that is not a leap year, and is left out there.
    package static func days(sameDateAs dayStart: Microseconds, localTime: LocalTime, years: ClosedRange<Int>) -> [Day] {
        let date = localTime.civilDate(ofDayStartingAt: dayStart)
        return years.compactMap { yearsAgo in
            guard let earlier = CivilDate(year: date.year - yearsAgo, month: date.month, day: date.day) else { return nil }
            return Day(yearsAgo: yearsAgo, since: localTime.dayStart(of: earlier), until: localTime.dayStart(of: CivilDate(daysSinceEpoch: earlier.daysSinceEpoch + 1)))
        }
    }
}

extension LocalTime {
    /// The date of the listening day beginning at `dayStart`, as the person's calendar reads it.
    func civilDate(ofDayStartingAt dayStart: Microseconds) -> CivilDate {
        let localStart = dayStart + offset(dayStart) - Self.dayBegins
        return CivilDate(daysSinceEpoch: Int((localStart - Self.modulo(localStart, Self.day)) / Self.day))
    }

    /// The instant the listening day of `date` begins: 04:00 local, with the offset in force then.
    func dayStart(of date: CivilDate) -> Microseconds {
        instant(atLocal: Microseconds(date.daysSinceEpoch) * Self.day + Self.dayBegins)
    }

    /// The instant whose local time is `local` (microseconds of local time since 1970-01-01
    /// 00:00 local), with the offset in force then.
    func instant(atLocal local: Microseconds) -> Microseconds {
        let guess = local - offset(local)
        return local - offset(guess)
    }
}
