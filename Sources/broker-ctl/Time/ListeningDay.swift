import FoundationEssentials

/// A day as moments count it: from 04:00 local time to 04:00 the next morning, so a night out
/// belongs to the day it began and a moment (which never crosses 04:00) lies within one day.
/// Local, never UTC: a listen at 18:00 in Los Angeles is on that evening's day, whatever the date
/// in Greenwich.
struct ListeningDay: Equatable, Sendable {
    /// When a listening day begins, after local midnight; the broker cuts moments at the same hour.
    static let beginningHour = 4

    /// The calendar date the day is named by (its time of day is midnight).
    let date: CivilTime

    init(_ date: CivilTime) {
        self.date = date.startOfDay
    }

    /// The listening day that holds `instant` in `timeZone`: the day before its date when the
    /// local time is earlier than 04:00.
    init(containing instant: Date, in timeZone: some UTCOffsetRule) {
        let local = timeZone.civilTime(at: instant)
        self.init(local.hour < Self.beginningHour ? local.startOfDay.addingDays(-1) : local.startOfDay)
    }

    /// The day `days` days later (earlier when negative).
    func addingDays(_ days: Int) -> ListeningDay {
        ListeningDay(date.addingDays(days))
    }

    /// 04:00 local time on the day's date.
    func start(in timeZone: some UTCOffsetRule) -> Date {
        var morning = date
        morning.hour = Self.beginningHour
        return timeZone.instant(at: morning)
    }

    /// 04:00 local time the next morning: the start of the following day.
    func end(in timeZone: some UTCOffsetRule) -> Date {
        addingDays(1).start(in: timeZone)
    }

    /// `2026-12-02`, as daily notes are named.
    var isoText: String { date.dateText }
}
