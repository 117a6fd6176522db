internal import CIntl
internal import Glibc

/// A wall-clock reading, broken down, as the person's locale writes it (`LC_TIME`).
///
/// The rules:
/// - **Clock times** use the 12-hour clock (`9:04 PM`, `%l:%M %p`) when the locale's own time
///   format (`nl_langinfo(nl_item(T_FMT))`) counts hours on one (`%I`, `%l` or `%r`) and names the halves
///   of the day (`AM_STR`); otherwise the 24-hour clock (`21:04`, `%H:%M`). en_US reads 12-hour;
///   de_DE, fr_FR and C read 24-hour.
/// - **Dates** are the locale's own (`%x`: `24.12.2026`, `24/12/2026`, `12/24/2026`), except in the
///   C and POSIX locales, which stand for no country: there it is ISO 8601 (`2026-12-24`), as the
///   programs wrote dates before they followed the locale.
/// - **Weekdays** are the locale's abbreviations (`%a`: `Thu`, `Do`, `jeu.`).
public struct LocaleTime: Equatable, Sendable {
    public var year: Int
    /// 1 to 12.
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    /// 0 for Sunday to 6 for Saturday.
    public var weekday: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, weekday: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.weekday = weekday
    }

    /// The reading of the process's time zone at `secondsSinceEpoch`. The C call is `localtime_r`.
    public init(localSecondsSinceEpoch seconds: Int64) {
        var time = time_t(seconds)
        var fields = tm()
        _ = localtime_r(&time, &fields)
        self.init(fields)
    }

    /// The reading a wall clock shows `seconds` after 1970-01-01 00:00 on the same clock: a time
    /// already moved by its zone's offset, as a caller with a zone of its own (a test's) has it.
    /// The C call is `gmtime_r`, which moves it no further.
    public init(wallClockSecondsSinceEpoch seconds: Int64) {
        var time = time_t(seconds)
        var fields = tm()
        _ = gmtime_r(&time, &fields)
        self.init(fields)
    }

    private init(_ fields: tm) {
        self.init(year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
                  hour: Int(fields.tm_hour), minute: Int(fields.tm_min), weekday: Int(fields.tm_wday))
    }

    /// `21:04` or `9:04 PM`.
    public var clockText: String {
        Self.uses12HourClock ? String(format("%l:%M %p").drop(while: { $0 == " " })) : format("%H:%M")
    }

    /// `24.12.2026`, or `2026-12-24` in the C locale.
    public var dateText: String { Self.isPOSIXLocale ? format("%Y-%m-%d") : format("%x") }

    /// `Thu`, `Do`, `jeu.`
    public var weekdayText: String { format("%a") }

    /// `2026-12-24 21:04`, `24.12.2026 21:04`, `12/24/2026 9:04 PM`.
    public var dateAndClockText: String { dateText + " " + clockText }

    /// `Thu 21:04`, `jeu. 21:04`.
    public var weekdayAndClockText: String { weekdayText + " " + clockText }

    /// Whether the locale counts hours on a 12-hour clock (see the type's rules).
    public static var uses12HourClock: Bool {
        let timeFormat = String(cString: nl_langinfo(nl_item(T_FMT)))
        let am = String(cString: nl_langinfo(nl_item(AM_STR)))
        return !am.isEmpty && (timeFormat.contains("%I") || timeFormat.contains("%l") || timeFormat.contains("%r"))
    }

    /// Whether `LC_TIME` is the C (POSIX) locale, whose dates are ISO 8601 here.
    static var isPOSIXLocale: Bool {
        guard let name = setlocale(LC_TIME, nil).map({ String(cString: $0) }) else { return true }
        return name == "C" || name == "POSIX" || name.hasPrefix("C.")
    }

    /// The C call is `strftime`, on a `tm` holding this reading.
    private func format(_ pattern: String) -> String {
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_wday = Int32(weekday)
        var buffer = [CChar](repeating: 0, count: 128)
        let count = strftime(&buffer, buffer.count, pattern, &fields)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
