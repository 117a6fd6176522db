import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore

/// `Apps`'s answer built from its parts, without a bus or a store.
@Suite("Apps: every app the person may want to control")
struct AppsListTests {
    static func entries(history: [AppSummary] = [], playing: [PlayerSummary] = [],
                        optOuts: [String: PrivacySettings.OptOutSource] = [:], allowed: Set<String> = [],
                        names: [String: String] = [:]) -> [String: [String: DBusValue]] {
        let settings = PrivacySettings(optOuts: optOuts, allowedApps: allowed)
        let list = AppsList.entries(history: history, playing: playing, settings: settings) { id in
            AppIdentity(appID: id, appName: names[id], appIcon: nil, source: .busName)
        }
        return Dictionary(uniqueKeysWithValues: list.compactMap { value in
            guard let fields = try? value.vardict(), let id = try? fields["app_id"]?.string() else { return nil }
            return (id, fields)
        })
    }

    @Test("apps in the history, playing now and opted out are each listed once, sorted by id")
    func union() {
        let list = AppsList.entries(
            history: [AppSummary(appID: "b", appName: "Stored B", appIcon: nil, listens: 3, lastSeen: 9)],
            playing: [PlayerSummary(busName: "org.mpris.MediaPlayer2.c", uniqueName: ":1.5", appID: "c", playbackStatus: "Playing")],
            settings: PrivacySettings(optOuts: ["a": .user, "b": .app])) { AppIdentity(appID: $0, appName: nil, appIcon: nil, source: .busName) }
        #expect(list.compactMap { try? $0.vardict()["app_id"]?.string() } == ["a", "b", "c"])
    }

    @Test("the history's counts, the opt-out and who made it")
    func fields() {
        let apps = Self.entries(history: [AppSummary(appID: "b", appName: "Stored B", appIcon: "/b.png", listens: 3, lastSeen: 9)],
                                optOuts: ["b": .app])
        let b = apps["b"] ?? [:]
        #expect(b["listens"] == .uint32(3) && b["last_seen"] == .int64(9) && b["app_icon"] == .string("/b.png"))
        #expect(b["opted_out"] == .boolean(true) && b["opted_out_by"] == .string("app"))
    }

    @Test("an app the person allowed is listed even before it played, and says so; the others say they are not")
    func allowed() {
        let apps = Self.entries(history: [AppSummary(appID: "b", appName: nil, appIcon: nil, listens: 1, lastSeen: 1)], allowed: ["a"])
        #expect(apps["a"]?["allowed"] == .boolean(true) && apps["a"]?["listens"] == .uint32(0))
        #expect(apps["b"]?["allowed"] == .boolean(false))
    }

    @Test("a new app asked about in this run is listed though it left the bus and has no listens")
    func askedAbout() {
        let list = AppsList.entries(history: [], playing: [], askedAbout: ["spotify"], settings: PrivacySettings(newApps: .ask)) {
            AppIdentity(appID: $0, appName: nil, appIcon: nil, source: .busName)
        }
        #expect(list.compactMap { try? $0.vardict()["app_id"]?.string() } == ["spotify"])
    }

    @Test("the desktop file's name today wins over the name stored with the last asset")
    func currentName() {
        let apps = Self.entries(history: [AppSummary(appID: "b", appName: "Old", appIcon: nil, listens: 1, lastSeen: 1)], names: ["b": "New"])
        #expect(apps["b"]?["app_name"] == .string("New"))
    }

    @Test("a player whose app id is longer than the contract allows is left out")
    func longID() {
        let long = String(repeating: "x", count: BrokerContract.maximumAppIDLength + 1)
        let apps = Self.entries(playing: [PlayerSummary(busName: "org.mpris.MediaPlayer2.x", uniqueName: ":1.5", appID: long, playbackStatus: nil)])
        #expect(apps.isEmpty)
    }
}
