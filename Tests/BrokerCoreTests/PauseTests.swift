import Testing
@testable import BrokerCore

/// Issue 34 §1, the policy: a pause stops every recording and donation while it lasts, ends at its
/// time, is stored with the settings, and is asked for within bounds.
@Suite("Pause: don't record for a while")
struct PauseTests {
    static let now: Microseconds = 1_800_000_000_000_000
    static let minute: Microseconds = 60_000_000

    @Test("while paused no app is allowed, opted out or not; resumed, they are again")
    func aPauseAllowsNoApp() {
        var settings = PrivacySettings(optOuts: ["spy": .user])
        settings.pausedUntil = Self.now + Self.minute
        #expect(!settings.allows("mpv") && !settings.allows("spy"))
        settings.pausedUntil = nil
        #expect(settings.allows("mpv") && !settings.allows("spy"))
    }

    @Test("a pause with an end is over at its time; one until resumed never is")
    func aPauseEndsAtItsTime() {
        let paused = PrivacySettings(pausedUntil: Self.now + Self.minute)
        #expect(!paused.pauseHasEnded(at: Self.now))
        #expect(paused.pauseHasEnded(at: Self.now + Self.minute))
        #expect(!PrivacySettings(pausedUntil: PrivacySettings.untilResumed).pauseHasEnded(at: .max - 1))
        #expect(!PrivacySettings().pauseHasEnded(at: Self.now))
    }

    @Test("a pause is stored with the settings and read back; settings that never paused store no line of it")
    func aPauseIsStored() throws {
        for until in [Self.now + Self.minute, PrivacySettings.untilResumed] {
            let settings = PrivacySettings(optOuts: ["spotify": .user], pausedUntil: until)
            #expect(try PrivacySettings(decoding: settings.encoded) == settings)
        }
        #expect(!PrivacySettings().encoded.contains("paused"))
        #expect(throws: PrivacySettings.DecodingError.self) { try PrivacySettings(decoding: "paused_until=soon\n") }
        #expect(throws: PrivacySettings.DecodingError.self) { try PrivacySettings(decoding: "paused_until=-5\n") }
    }

    @Test("a duration or a time ends the pause then; neither, when the person resumes")
    func whenAPauseEnds() {
        #expect(PauseRequest.lasting(30 * Self.minute).end(askedAt: Self.now) == .success(Self.now + 30 * Self.minute))
        #expect(PauseRequest.until(Self.now + Self.minute).end(askedAt: Self.now) == .success(Self.now + Self.minute))
        #expect(PauseRequest.untilResumed.end(askedAt: Self.now) == .success(PrivacySettings.untilResumed))
    }

    @Test("a duration that is not positive, a time not in the future, or either beyond a year is refused as InvalidArgs",
          arguments: [PauseRequest.lasting(0), .lasting(-Self.minute), .lasting(PauseRequest.longest + 1),
                      .until(Self.now), .until(Self.now - Self.minute), .until(Self.now + PauseRequest.longest + 1)])
    func outOfBounds(request: PauseRequest) {
        guard case .failure(let refusal) = request.end(askedAt: Self.now) else {
            Issue.record("\(request) was accepted")
            return
        }
        #expect(refusal.name == .invalidArgs)
    }

    @Test("a donation while paused is refused with Paused; Media off still says MediaDisabled first")
    func aDonationWhilePaused() {
        let asset = MediaAsset(title: "Song", appID: "org.example.Journal", started: Self.now - Self.minute, ended: Self.now,
                               listened: Self.minute, source: .donation)
        let paused = PrivacySettings(pausedUntil: PrivacySettings.untilResumed)
        #expect(asset.refusalOfDonation(listenedTold: false, now: Self.now, rule: .lastFM, settings: paused)?.name == .paused)
        var off = paused
        off.mediaEnabled = false
        #expect(asset.refusalOfDonation(listenedTold: false, now: Self.now, rule: .lastFM, settings: off)?.name == .mediaDisabled)
        #expect(asset.refusalOfDonation(listenedTold: false, now: Self.now, rule: .lastFM, settings: PrivacySettings()) == nil)
    }

    @Test("a pause or its end is told to clients as PausedUntil, and logged")
    func aPauseIsAChange() {
        let change = SettingsChange(before: PrivacySettings(), after: PrivacySettings(pausedUntil: PrivacySettings.untilResumed))
        #expect(change.isChange && change.changedProperties == ["PausedUntil"])
        #expect(change.logLine.hasSuffix(", paused until resumed"))
    }

    @Test("only the person's own programs pause and resume; anyone may read PausedUntil")
    func whoMayPause() {
        #expect(ReaderPolicy.right(member: "Pause", ofProperties: false, property: nil) == .changeSettings)
        #expect(ReaderPolicy.right(member: "Resume", ofProperties: false, property: nil) == .changeSettings)
        #expect(ReaderPolicy.right(member: "Get", ofProperties: true, property: "PausedUntil") == .anyone)
        #expect(ReaderPolicy.refusal(of: .changeSettings, to: .app("org.example.Shy"), settings: PrivacySettings()) != nil)
    }
}
