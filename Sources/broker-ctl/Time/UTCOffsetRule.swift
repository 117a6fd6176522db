import FoundationEssentials
internal import Glibc

/// How far a place's clocks are from UTC at any instant — what broker-ctl needs of a time zone.
///
/// Not Foundation's `TimeZone`: without FoundationInternationalization (which broker-ctl leaves out
/// to stay off ICU) `TimeZone.current` is always GMT, and any use of `TimeZone` links a large part
/// of FoundationEssentials into the program, whose type lookups every start then pays for. The live
/// program uses ``SystemTimeZone``, which asks the C library and so honours `TZ` and
/// `/etc/localtime`; JSON output uses ``UTC``. (Tests make `TimeZone` conform, for fixed zones.)
protocol UTCOffsetRule: Sendable {
    /// Seconds to add to UTC to get the local wall clock at `instant`.
    func secondsFromUTC(at instant: Date) -> Int
}

/// Coordinated Universal Time: the zone of the `_iso` fields in JSON output.
struct UTC: UTCOffsetRule {
    func secondsFromUTC(at instant: Date) -> Int { 0 }
}

/// The process's local time zone, as the C library's `localtime_r` sees it.
struct SystemTimeZone: UTCOffsetRule {
    func secondsFromUTC(at instant: Date) -> Int {
        var seconds = time_t(instant.timeIntervalSince1970.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return 0 }
        return local.tm_gmtoff
    }
}

extension UTCOffsetRule {
    /// The wall-clock reading at `instant` in this zone.
    func civilTime(at instant: Date) -> CivilTime {
        let seconds = instant.timeIntervalSince1970.rounded(.down)
        let nanoseconds = Int(((instant.timeIntervalSince1970 - seconds) * 1e9).rounded(.down))
        return CivilTime(
            secondsSinceEpoch: Int64(seconds) + Int64(secondsFromUTC(at: instant)),
            nanosecond: nanoseconds)
    }

    /// The instant the wall clock of this zone reads `civil`.
    ///
    /// Around a daylight-saving change a reading can happen twice or never. Twice: the earlier
    /// one, as a person saying "since 02:30" most likely means the first. Never: the reading is
    /// taken with the offset from before the change, which lands just after it (02:30 in a gap
    /// that skips to 03:00 becomes 03:30), so a range never silently shrinks to nothing.
    func instant(at civil: CivilTime) -> Date {
        let wall = civil.secondsSinceEpoch
        let day: Int64 = 86_400
        // Offsets from a day either side of the reading: a zone changes at most once in between.
        let offsetBefore = Int64(secondsFromUTC(at: Date(timeIntervalSince1970: Double(wall - day))))
        let offsetAfter = Int64(secondsFromUTC(at: Date(timeIntervalSince1970: Double(wall + day))))
        let candidates = [offsetBefore, offsetAfter].map { wall - $0 }.filter { candidate in
            Int64(secondsFromUTC(at: Date(timeIntervalSince1970: Double(candidate)))) == wall - candidate
        }
        let seconds = candidates.min() ?? (wall - offsetBefore)
        return Date(timeIntervalSince1970: Double(seconds) + Double(civil.nanosecond) / 1e9)
    }
}
