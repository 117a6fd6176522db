import Testing
@testable import BrokerCore

/// What `new_apps` and the person's allowing mean for each app (issue 34, §2), and how they are
/// kept with the settings.
@Suite("New apps: record, ask or ignore")
struct NewAppsSettingsTests {
    @Test("record records every app not opted out; ask and ignore only the allowed ones")
    func whoIsRecorded() {
        for mode in PrivacySettings.NewApps.allCases {
            let settings = PrivacySettings(optOuts: ["out": .user], newApps: mode, allowedApps: ["kept"])
            #expect(settings.allows("kept"), "\(mode): an allowed app")
            #expect(!settings.allows("out"), "\(mode): an opted-out app")
            #expect(settings.allows("new") == (mode == .record), "\(mode): a new app")
            #expect(settings.awaitsAnswer(about: "new") == (mode == .ask), "\(mode): asked about")
            #expect(!settings.awaitsAnswer(about: "kept") && !settings.awaitsAnswer(about: "out"))
        }
    }

    @Test("nothing is asked about while Media is off or recording is paused")
    func noQuestionWhileOff() {
        #expect(!PrivacySettings(mediaEnabled: false, newApps: .ask).awaitsAnswer(about: "new"))
        #expect(!PrivacySettings(pausedUntil: PrivacySettings.untilResumed, newApps: .ask).awaitsAnswer(about: "new"))
    }

    @Test("the person's opt-in allows the app and clears any opt-out; their opt-out takes the allowing back")
    func personDecides() {
        var settings = PrivacySettings(optOuts: ["a": .app], newApps: .ignore)
        OptOutRequest.byPerson(appID: "a", optedOut: false).apply(to: &settings, appID: "a")
        #expect(settings.optOuts["a"] == nil && settings.allowedApps == ["a"] && settings.allows("a"))
        OptOutRequest.byPerson(appID: "a", optedOut: true).apply(to: &settings, appID: "a")
        #expect(settings.optOuts["a"] == .user && settings.allowedApps.isEmpty)
    }

    @Test("a player withdrawing its own opt-out is new again, not allowed")
    func playerOptInIsNotAllowing() {
        var settings = PrivacySettings(optOuts: ["a": .app], newApps: .ask)
        let decision = OptOutRequest.byPlayer(appID: "a", out: false, settings: settings)
        decision.apply(to: &settings, appID: "a")
        #expect(settings.optOuts.isEmpty && settings.allowedApps.isEmpty && settings.awaitsAnswer(about: "a"))
    }

    @Test("the mode and the allowed apps are stored, and read back; the default writes neither")
    func stored() throws {
        let settings = PrivacySettings(newApps: .ask, allowedApps: ["org.example.B", "a"])
        #expect(settings.encoded.contains("new_apps=ask\nallow=a\nallow=org.example.B\n"))
        #expect(try PrivacySettings(decoding: settings.encoded) == settings)
        #expect(!PrivacySettings().encoded.contains("new_apps") && !PrivacySettings().encoded.contains("allow="))
        #expect(throws: PrivacySettings.DecodingError.self) { try PrivacySettings(decoding: "new_apps=sometimes\n") }
        #expect(throws: PrivacySettings.DecodingError.self) { try PrivacySettings(decoding: "allow=../x\n") }
    }

    @Test("a change names NewApps and AllowedApps when they change")
    func changeNamesProperties() {
        let change = SettingsChange(before: PrivacySettings(), after: PrivacySettings(newApps: .ask, allowedApps: ["a"]))
        #expect(change.changedProperties == ["NewApps", "AllowedApps"])
    }

    @Test("Donate from an app the person has not allowed is refused with its own error while new apps are not recorded at once")
    func donationRefused() {
        let asset = MediaAsset(title: "T", appID: "new", started: 0, ended: 1, listened: 1, source: .donation)
        for mode in [PrivacySettings.NewApps.ask, .ignore] {
            let refusal = asset.refusalOfDonation(listenedTold: false, now: 1, rule: .lastFM, settings: PrivacySettings(newApps: mode))
            #expect(refusal?.name == .appNotAllowed)
        }
        #expect(asset.refusalOfDonation(listenedTold: false, now: 1, rule: .lastFM,
                                        settings: PrivacySettings(newApps: .ask, allowedApps: ["new"])) == nil)
    }
}
