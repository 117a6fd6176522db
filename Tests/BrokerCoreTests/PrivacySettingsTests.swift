import Testing
@testable import BrokerCore

/// The person's settings as stored: a round trip, and a damaged text refused with its line.
@Suite struct PrivacySettingsTests {
    @Test("settings survive encoding and decoding exactly")
    func roundTrip() throws {
        let settings = PrivacySettings(mediaEnabled: false, retentionDays: 0, optOuts: ["spotify": .user, "com.example.Shy": .app])
        #expect(try PrivacySettings(decoding: settings.encoded) == settings)
        #expect(try PrivacySettings(decoding: PrivacySettings().encoded) == PrivacySettings())
    }

    @Test("nothing stored means the defaults: Media on, 90 days, nobody opted out")
    func defaults() throws {
        let empty = try PrivacySettings(decoding: "")
        #expect(empty.mediaEnabled && empty.retentionDays == 90 && empty.optOuts.isEmpty)
    }

    @Test("a damaged line is refused with its line number, never skipped", arguments: [
        ("media_enabled=1\nretention_days=ninety\n", 2),
        ("media_enabled=yes\n", 1),
        ("media_enabled=1\n\nopt_out=somebody:spotify\n", 3),
        ("opt_out=user:\n", 1),
        ("retention_days=99999999\n", 1),
        ("colour=blue\n", 1),
        ("just words\n", 1),
    ])
    func damagedLine(text: String, line: Int) {
        #expect(throws: PrivacySettings.DecodingError.self) { try PrivacySettings(decoding: text) }
        do {
            _ = try PrivacySettings(decoding: text)
        } catch {
            #expect(error.line == line, "\(error)")
        }
    }

    @Test("allows: Media off forbids every app; an opt-out forbids that app only")
    func allows() {
        var settings = PrivacySettings(optOuts: ["spy": .user])
        #expect(settings.allows("mpv"))
        #expect(!settings.allows("spy"))
        settings.mediaEnabled = false
        #expect(!settings.allows("mpv"))
    }

    @Test("hasExpired: what started before the retention window has expired, to the microsecond; 0 days keeps everything")
    func retentionWindow() {
        let day: Microseconds = 86_400_000_000
        let now: Microseconds = 1_800_000_000_000_000
        let thirty = PrivacySettings(retentionDays: 30)
        #expect(thirty.retentionWindow == 30 * day)
        #expect(thirty.hasExpired(started: now - 30 * day - 1, now: now))
        #expect(!thirty.hasExpired(started: now - 30 * day, now: now), "the edge itself is kept, as the retention pass keeps it")
        #expect(!thirty.hasExpired(started: now, now: now))
        let forever = PrivacySettings(retentionDays: 0)
        #expect(forever.retentionWindow == nil)
        #expect(!forever.hasExpired(started: 0, now: now))
    }

    @Test("no stored value can add a line of its own: an app id outside the rule is never written (issue 32, item 9)")
    func settingsCannotBeInjected() throws {
        var settings = PrivacySettings()
        settings.optOuts["x\nreader=allowed:1:-:org.evil.App"] = .user
        settings.optOuts["org.example.Fine"] = .user
        let decoded = try PrivacySettings(decoding: settings.encoded)
        #expect(decoded.readers.isEmpty)
        #expect(decoded.optOuts == ["org.example.Fine": .user])
        #expect(throws: PrivacySettings.DecodingError.self) { try PrivacySettings(decoding: "opt_out=user:not an id\n") }
    }
}
