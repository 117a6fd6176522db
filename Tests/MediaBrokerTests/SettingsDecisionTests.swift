import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore

/// What the person's settings decide, without a bus: what a change tells clients, who may opt an
/// app out or in, what journaling apps may see.
@Suite("Settings: changes, opt-outs and what apps see")
struct SettingsDecisionTests {
    @Test("a change names exactly the properties whose values changed; retention runs again only for a new retention")
    func changedProperties() {
        let before = PrivacySettings()
        let off = SettingsChange(before: before, after: PrivacySettings(mediaEnabled: false))
        #expect(off.isChange && off.changedProperties == ["MediaEnabled"] && !off.rerunsRetention)
        let both = SettingsChange(before: before, after: PrivacySettings(retentionDays: 7, optOuts: ["a": .user]))
        #expect(both.changedProperties == ["OptedOutApps", "RetentionDays"] && both.rerunsRetention)
        // Who opted an app out changes no app list.
        let source = SettingsChange(before: PrivacySettings(optOuts: ["a": .app]), after: PrivacySettings(optOuts: ["a": .user]))
        #expect(source.isChange && source.changedProperties.isEmpty)
        #expect(!SettingsChange(before: before, after: before).isChange)
    }

    @Test("the person opts any app out or in; an app id must be 1…255 bytes")
    func byPerson() {
        #expect(OptOutRequest.byPerson(appID: "org.example.App", optedOut: true) == .optOut(.user))
        #expect(OptOutRequest.byPerson(appID: "org.example.App", optedOut: false) == .allow)
        for bad in ["", String(repeating: "a", count: 256)] {
            guard case .refused(let error) = OptOutRequest.byPerson(appID: bad, optedOut: true) else {
                Issue.record("'\(bad.prefix(8))…' accepted")
                continue
            }
            #expect(error.name == .invalidArgs)
        }
    }

    @Test("a player opts only itself, and cannot undo the person's opt-out")
    func byPlayer() {
        let none = PrivacySettings()
        #expect(OptOutRequest.byPlayer(appID: "vlc", out: true, settings: none) == .optOut(.app))
        #expect(OptOutRequest.byPlayer(appID: "vlc", out: false, settings: none) == .unchanged)
        let byApp = PrivacySettings(optOuts: ["vlc": .app])
        #expect(OptOutRequest.byPlayer(appID: "vlc", out: true, settings: byApp) == .unchanged)
        #expect(OptOutRequest.byPlayer(appID: "vlc", out: false, settings: byApp) == .withdrawOptOut)
        let byUser = PrivacySettings(optOuts: ["vlc": .user])
        #expect(OptOutRequest.byPlayer(appID: "vlc", out: true, settings: byUser) == .unchanged)
        guard case .refused(let error) = OptOutRequest.byPlayer(appID: "vlc", out: false, settings: byUser) else {
            Issue.record("a player undid the person's opt-out")
            return
        }
        #expect(error.name == .optedOutByUser)
        guard case .refused(let notPlayer) = OptOutRequest.byPlayer(appID: nil, out: true, settings: none) else {
            Issue.record("a connection with no player name opted out")
            return
        }
        #expect(notPlayer.name == .notAPlayer)
    }

    @Test("what plays now is shown only with Media on, and never for an opted-out app")
    func nowPlayingShown() {
        let playing = ["vlc", "mpv"].map { MediaAsset(title: "T", appID: $0, started: 0, ended: 0, listened: 0, source: .mpris) }
        #expect(PrivacySettings().shown(playing).map(\.appID) == ["vlc", "mpv"])
        #expect(PrivacySettings(optOuts: ["vlc": .user]).shown(playing).map(\.appID) == ["mpv"])
        #expect(PrivacySettings(mediaEnabled: false).shown(playing).isEmpty)
    }

    @Test("RecentMedia answers nothing with Media off or for an opted-out app, and leaves opted-out apps out of the rest")
    func recentAllowed() throws {
        let optedOut = PrivacySettings(optOuts: ["vlc": .user])
        let all = try RecentQuery(filter: [:])
        #expect(all.allowed(by: optedOut)?.excludingApps == ["vlc"])
        #expect(all.allowed(by: PrivacySettings(mediaEnabled: false)) == nil)
        #expect(try RecentQuery(filter: ["app_id": .string("vlc")]).allowed(by: optedOut) == nil)
        #expect(try RecentQuery(filter: ["app_id": .string("mpv")]).allowed(by: optedOut)?.appID == "mpv")
    }
}
