import FoundationEssentials
import Glibc

/// A time as the person's clock shows it (the C library's local time zone): `21:30` today, else
/// `Thu 21:30` within a week, else `2026-12-24 21:30`.
enum LocalClockText {
    static func text(of date: Date, now: Date = Date()) -> String {
        let days = date.timeIntervalSince(now) / 86_400
        let format = Self.isSameDay(date, now) ? "%H:%M" : days < 6 ? "%a %H:%M" : "%Y-%m-%d %H:%M"
        return strftime(format, date)
    }

    /// The time alone: `21:30`.
    static func clock(_ date: Date) -> String { strftime("%H:%M", date) }

    private static func isSameDay(_ a: Date, _ b: Date) -> Bool { strftime("%Y-%m-%d", a) == strftime("%Y-%m-%d", b) }

    private static func strftime(_ format: String, _ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = Glibc.strftime(&buffer, buffer.count, format, &local)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
