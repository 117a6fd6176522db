public import Foundation

/// A `TZ` value under which the present is early afternoon, local time. Listens donated "a few
/// minutes ago" (or a few hours ago) then share a listening day, which begins at 04:00, whatever
/// the hour the tests run at; a broker in UTC would split them when the suite runs just after 04:00.
public enum MiddayTimeZone {
    /// The zone for `instant`: local 13:xx, as an offset whole hours from UTC (POSIX writes the
    /// offset west of UTC, hence the sign).
    public static func at(_ instant: Date) -> String {
        "MBT\(-hoursEast(at: instant))"
    }

    /// How many hours east of UTC the zone for `instant` is.
    public static func hoursEast(at instant: Date) -> Int {
        let utcHour = Int(instant.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) / 3600)
        var east = 13 - utcHour
        if east > 12 { east -= 24 }
        if east < -11 { east += 24 }
        return east
    }

    /// `instant` as `HH:MM:SS` in a zone `hoursEast` of UTC.
    public static func clock(at instant: Date, hoursEast: Int) -> String {
        let local = ((Int(instant.timeIntervalSince1970) + hoursEast * 3600) % 86_400 + 86_400) % 86_400
        return String(format: "%02d:%02d:%02d", local / 3600, local / 60 % 60, local % 60)
    }

    /// The zone for now.
    public static var now: String { at(Date()) }
}
