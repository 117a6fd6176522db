import MediaBrokerVersion
import SwiftDBus
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore

@Suite("StatusQueries: what plays now, which apps are known, and the broker's status, as the settings allow")
struct StatusQueriesTests {
    /// `NowPlaying`, `Apps` and `Status` served with the gate admitting each call, over a tracker
    /// that follows no player yet.
    static func served(_ rig: BrokerPartsRig, _ settings: CurrentSettings) async {
        let gate = rig.gate(settings)
        let announcer = Announcer(connection: rig.connection, settings: settings, log: rig.log)
        let eraser = HistoryEraser(connection: rig.connection, store: rig.store, settings: settings, announcer: announcer, log: rig.log)
        let writer = HistoryWriter(connection: rig.connection, store: rig.store, announcer: announcer, eraser: eraser, rules: CorrectionRules(), log: rig.log)
        let resolver = AppResolver(environment: [:])
        let players = PlayerTracker(connection: rig.connection, writer: writer, resolver: resolver, arrivals: ConnectionArrivals(),
                                    settings: settings.value, rule: .lastFM, artworkFolder: nil, log: rig.log)
        let status = StatusQueries(players: players, gate: gate, store: rig.store, settings: settings, resolver: resolver)
        await rig.serve([
            ExportedMethod("NowPlaying", outputs: [Argument("assets", "aa{sv}")]) { call in status.nowPlaying(call) },
            ExportedMethod("Apps", outputs: [Argument("apps", "aa{sv}")]) { call in status.apps(call) },
            ExportedMethod("Status", outputs: [Argument("status", .vardict)]) { call in status.status(call) },
        ], gate: gate)
    }

    @Test("Status tells its own reader the version, the players followed and how many listens are kept")
    func statusCountsTheHistory() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        await Self.served(rig, CurrentSettings(PrivacySettings()))
        _ = try await answer { rig.store.insert(contentsOf: [makeAsset("a"), makeAsset("b", started: 2)], completion: $0) }
        let status = try #require(try await rig.call("Status").first?.vardict())
        #expect(status["version"] == .string(MediaBrokerVersion.current))
        #expect(status["players"] == .array(element: .vardict, []))
        #expect(status["assets"] == .uint64(2))
    }

    @Test("Apps lists the apps in the history, with their listens and whether they are opted out")
    func appsListsTheHistory() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        await Self.served(rig, CurrentSettings(PrivacySettings(optOuts: ["vlc": .user])))
        _ = try await answer { rig.store.insert(contentsOf: [makeAsset("a", app: "mpv"), makeAsset("b", app: "mpv", started: 2),
                                                             makeAsset("c", app: "vlc", started: 3)], completion: $0) }
        let apps = try #require(try await rig.call("Apps").first?.array()).compactMap { try? $0.vardict() }
        let byID = Dictionary(uniqueKeysWithValues: apps.compactMap { app in (try? app["app_id"]?.string()).map { ($0, app) } })
        #expect(byID["mpv"]?["listens"] == .uint32(2) && byID["mpv"]?["opted_out"] == .boolean(false))
        #expect(byID["vlc"]?["listens"] == .uint32(1) && byID["vlc"]?["opted_out"] == .boolean(true))
    }

    @Test("NowPlaying answers nothing while no player plays")
    func nothingPlays() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        await Self.served(rig, CurrentSettings(PrivacySettings()))
        #expect(try await rig.call("NowPlaying") == [.array(element: .vardict, [])])
    }
}
