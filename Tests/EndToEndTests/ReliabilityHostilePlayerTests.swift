import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// Issue 6 §2 at the D-Bus level: a scripted player sends a real broker the hostile metadata the
/// unit tests decode — a 1 MB title, 10,000 artists, variants nested as deep as the bus allows, a
/// wrong type for every key — and the broker survives and records the sane parts.
@Suite struct ReliabilityHostilePlayerTests {
    static func nested(_ value: DBusValue, _ depth: Int) -> DBusValue {
        (0..<depth).reduce(value) { inner, _ in .variant(inner) }
    }

    /// Plays `metadata` until the broker has seen it, then stops: with `--min-listen 0` any
    /// recordable metadata becomes an asset.
    func listen(_ player: ScriptedPlayer, _ metadata: DBusValue) async throws {
        try player.set(["Metadata": metadata, "PlaybackStatus": .string("Playing")])
        try await Reliability.sync(player.connection)
        try player.set(["PlaybackStatus": .string("Stopped")])
        try await Reliability.sync(player.connection)
    }

    @Test("hostile metadata over the bus: the broker survives and records what is sane")
    func hostileMetadata() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "hostile")
        try await waitUntil("the broker follows the player") { try await client.status().players.count == 1 }

        // A 1 MB title: cut to 1 KB.
        try await listen(player, .vardict(["xesam:title": .string(String(repeating: "t", count: 1 << 20))]))
        // 10,000 artists of 100 bytes: at most 64 kept, within the asset's artist budget.
        try await listen(player, .vardict([
            "xesam:title": .string("Crowd"),
            "xesam:artist": .strings((0..<10_000).map { String(format: "%05d", $0) + String(repeating: "a", count: 95) }),
        ]))
        // A wrong type in every key but the title.
        try await listen(player, .vardict([
            "xesam:title": .string("Wrong Types"), "xesam:artist": .int32(7), "xesam:album": .array(element: .int32, [.int32(1)]),
            "mpris:length": .structure([.string("long")]), "mpris:trackid": .boolean(true), "xesam:url": .double(.nan),
            "xesam:genre": .dictionary(key: .string, value: .variant, []), "mediabroker:exclude": .string("no"),
        ]))
        // The title as deep in variants as a message may carry (libdbus refuses deeper values).
        var depth = 64
        while depth > 0 {
            do {
                try await listen(player, .vardict(["xesam:title": Self.nested(.string("Deep"), depth)]))
                break
            } catch {
                depth -= 1
            }
        }
        #expect(depth >= 50, "only \(depth) variants deep could be sent")
        // Not metadata at all, a status that is no status, a rate that is no rate: ignored.
        try player.set(["Metadata": .string("not a map"), "PlaybackStatus": .int32(1), "Rate": .string("fast")])
        try player.set(["Metadata": Self.nested(.int64(5), 40), "PlaybackStatus": .string("Playing")])
        try player.set(["PlaybackStatus": .string("Stopped")])
        try await Reliability.sync(player.connection)

        #expect(broker.process.isRunning)
        let assets = try await client.recentMedia()
        let byTitle = Dictionary(assets.map { ($0.title ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(assets.count == 4, "\(assets.map(\.title))")
        let long = try #require(assets.first { $0.title?.hasPrefix("ttt") == true })
        #expect(long.title?.utf8.count == 1024)
        let crowd = try #require(byTitle["Crowd"])
        #expect(!crowd.artists.isEmpty && crowd.artists.count <= 64)
        #expect(crowd.artists.reduce(0) { $0 + $1.utf8.count } <= 4096)
        #expect(crowd.artists.first == "00000" + String(repeating: "a", count: 95), "artists are kept in order")
        let wrong = try #require(byTitle["Wrong Types"])
        #expect(wrong.artists.isEmpty && wrong.album == nil && wrong.length == nil)
        #expect(byTitle["Deep"] != nil)
        #expect(try broker.integrity() == "ok")
        #expect(try broker.stop() == .exited(0))
    }
}
