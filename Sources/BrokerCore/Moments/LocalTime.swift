/// The person's local time, as moments are cut and named: the day a moment belongs to begins at
/// 04:00 (a night out ends a day, it does not begin the next), and its part of the day names it.
/// The offset from UTC is asked of the C library (``system``, in `LocalTime+System.swift`) or given
/// by a test.
package struct LocalTime: Sendable {
    /// The offset from UTC in force at an instant, in microseconds.
    let offset: @Sendable (Microseconds) -> Microseconds

    package init(offset: @escaping @Sendable (Microseconds) -> Microseconds) {
        self.offset = offset
    }

    package static let hour: Microseconds = 3_600_000_000
    package static let day: Microseconds = 24 * hour
    /// When a listening day begins, after local midnight.
    static let dayBegins: Microseconds = 4 * hour

    /// A fixed offset from UTC (tests).
    static func fixed(hours: Int64) -> LocalTime { LocalTime { _ in hours * hour } }

    /// The start of the listening day holding `instant`: 04:00 local on that day, or the day
    /// before when `instant` is earlier than 04:00.
    package func dayStart(containing instant: Microseconds) -> Microseconds {
        let local = instant + offset(instant)
        let localStart = local - Self.modulo(local - Self.dayBegins, Self.day)
        // The offset in force at 04:00 may differ from now's (a DST change in the night).
        return localStart - offset(localStart - offset(instant))
    }

    /// The hour of the local day, 0…23.
    func hour(of instant: Microseconds) -> Int {
        Int(Self.modulo(instant + offset(instant), Self.day) / Self.hour)
    }

    /// The seconds a local wall clock shows at `instant`, counted from 1970-01-01 00:00 on that clock.
    package func wallClockSeconds(of instant: Microseconds) -> Int64 {
        let local = instant + offset(instant)
        return (local - Self.modulo(local, 1_000_000)) / 1_000_000
    }

    /// The local wall-clock time of `instant` as `HH:MM`.
    package func clockTime(of instant: Microseconds) -> String {
        let minutes = Self.modulo(instant + offset(instant), Self.day) / 60_000_000
        let (h, m) = (minutes / 60, minutes % 60)
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    static func modulo(_ a: Microseconds, _ b: Microseconds) -> Microseconds {
        let r = a % b
        return r < 0 ? r + b : r
    }
}

/// The part of the day a moment began in, as a title names it.
package enum PartOfDay: String, Sendable, CaseIterable {
    case morning, afternoon, evening, night

    /// Morning 04–12, afternoon 12–17, evening 17–22, night 22–04.
    init(hour: Int) {
        switch hour {
        case 4..<12: self = .morning
        case 12..<17: self = .afternoon
        case 17..<22: self = .evening
        default: self = .night
        }
    }

    /// "Evening listening".
    var listeningTitle: String {
        switch self {
        case .morning: "Morning listening"
        case .afternoon: "Afternoon listening"
        case .evening: "Evening listening"
        case .night: "Late-night listening"
        }
    }
}
