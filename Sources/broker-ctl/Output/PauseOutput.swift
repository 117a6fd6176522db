import Localization
import MediaDonationClient

/// What `broker-ctl pause`, `resume` and `status` say of a pause.
enum PauseOutput {
    /// `until 2026-12-03 23:00` or `until you resume (broker-ctl resume)`.
    static func end(_ pause: RecordingPause, timeZone: any UTCOffsetRule) -> String {
        switch pause {
        case .untilResumed: localized("until you resume (broker-ctl resume)")
        case .until(let date): localized("until {time}", ["time": timeZone.civilTime(at: date).localeMinuteText])
        }
    }

    static func text(_ pause: RecordingPause?, timeZone: any UTCOffsetRule) -> String {
        guard let pause else { return localized("Recording is not paused.") + "\n" }
        // TRANSLATORS: {end} is "until you resume (broker-ctl resume)" or "until {time}".
        return localized("Recording paused {end}.", ["end": end(pause, timeZone: timeZone)]) + "\n"
    }

    static func json(_ pause: RecordingPause?) -> String {
        var object = JSONObjectBuilder()
        add(pause, to: &object)
        return object.object.serialized + "\n"
    }

    /// `paused` (true or false) and, for a pause with an end, `paused_until` (ISO-8601, UTC).
    static func add(_ pause: RecordingPause?, to object: inout JSONObjectBuilder) {
        object.add("paused", JSONValue.bool(pause != nil))
        if case .until(let date) = pause { object.add("paused_until", UTC().civilTime(at: date).utcISO8601Text) }
    }
}
