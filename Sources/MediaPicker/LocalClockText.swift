import FoundationEssentials
import ClientMomentText
import Localization

/// A time as the person's clock shows it (the C library's local time zone, the locale's formats,
/// as ``LocaleTime`` says): `21:30` today, else `Thu 21:30` within a week, else
/// `2026-12-24 21:30` (`24.12.2026 21:30` in German).
enum LocalClockText {
    static func text(of date: Date, now: Date = Date()) -> String {
        let time = LocaleTime(local: date), today = LocaleTime(local: now)
        let days = date.timeIntervalSince(now) / 86_400
        if (time.year, time.month, time.day) == (today.year, today.month, today.day) { return time.clockText }
        return days < 6 ? time.weekdayAndClockText : time.dateAndClockText
    }

    /// The time alone: `21:30`, or `9:30 PM` where the locale counts hours on a 12-hour clock.
    static func clock(_ date: Date) -> String { LocaleTime(local: date).clockText }
}
