import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// Issue 19's artwork on a real broker: art a player points at is secured at once and kept as a
/// file beside the history, whatever becomes of the player's own file; remote art is only named;
/// hostile art is refused without harm; purged listens take their art with them.
@Suite(.serialized) struct ArtworkEndToEndTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("a cover, as far as the broker can tell".utf8)

    static func artFiles(_ broker: RunningBroker) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: broker.data.appending("artwork"))) ?? []).filter { !$0.hasSuffix(".partial") }
    }

    static func bytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }

    @Test("an mpv playlist of one album in a folder with cover.png: one album moment, its art the cover's bytes")
    func mpvAlbumWithCover() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "1"], environment: ["TZ": MiddayTimeZone.now])
        let client = try broker.client()
        let folder = try TemporaryDirectory(prefix: "album")
        let cover = folder.appending("cover.png")
        #expect(FileManager.default.createFile(atPath: cover, contents: Data(Self.png)))
        let tracks = (1...3).map { folder.appending("\($0).ogg") }
        for (index, track) in tracks.enumerated() {
            try AudioFixture.makeTaggedTrack(at: track, title: "Part \(index + 1)", artist: "Sine Ensemble", album: "Test Tones", seconds: 3)
        }
        let mpv = try MPVPlayer.launch(playing: tracks, on: bus)
        #expect(try mpv.process.waitForExit(timeout: .seconds(40)) == .exited(0))
        try await broker.waitUntilNoPlayers(client)
        let moment = try #require(try await client.moments().first)
        #expect(moment.titleRule == .album && moment.title == "Test Tones — Sine Ensemble" && moment.count == 3, "\(moment)")
        let assets = try await client.media(ids: moment.assetIDs)
        let art = try #require(assets.first?.artwork, "mpv-mpris sent no cover: \(assets)")
        #expect(Self.bytes(art) == Self.png)
        #expect(Set(assets.compactMap(\.artwork)) == [art])
        try broker.stop()
    }

    @Test("art whose file the player deletes right after the track starts is still kept")
    func deletedAfterStart() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "chromium.instance7")
        try await player.waitUntilFollowed(by: client)
        let folder = try TemporaryDirectory(prefix: "browser-art")
        let file = folder.appending(".org.chromium.Chromium.x1")
        #expect(FileManager.default.createFile(atPath: file, contents: Data(Self.png)))
        try player.play(title: "Streamed", extra: ["mpris:artUrl": .string("file://" + file)])
        try broker.process.waitForOutput(containing: "secured art", in: .standardError, timeout: .seconds(10))
        try FileManager.default.removeItem(atPath: file)
        try await player.waitUntilSeen(by: client, as: "Playing")
        try await PlayClock().play(for: .milliseconds(2500))
        try player.stop()
        try await player.waitUntilSeen(by: client, as: "Stopped")
        let asset = try #require(try await client.recentMedia().first)
        let art = try #require(asset.artwork)
        #expect(Self.bytes(art) == Self.png && art.hasPrefix(broker.data.appending("artwork/")))
        try broker.stop()
    }

    @Test("a data: URL is kept like a file; an https URL is only named, never fetched")
    func dataAndRemote() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "webapp")
        try await player.waitUntilFollowed(by: client)
        let data = "data:image/png;base64," + Data(Self.png).base64EncodedString()
        try await player.playThrough(ScriptedPlayer.metadata(title: "Inline", extra: ["mpris:artUrl": .string(data)]),
                                     for: .milliseconds(2500), seenBy: client)
        try await player.playThrough(ScriptedPlayer.metadata(title: "Remote", extra: ["mpris:artUrl": .string("https://i.scdn.co/image/ab67")]),
                                     for: .milliseconds(2500), seenBy: client)
        let assets = try await client.recentMedia()
        #expect(assets.map(\.title) == ["Remote", "Inline"])
        #expect(assets[0].artwork == nil && assets[0].artworkURL == "https://i.scdn.co/image/ab67")
        #expect(assets[1].artwork.flatMap(Self.bytes) == Self.png && assets[1].artworkURL == nil)
        try broker.stop()
    }

    @Test("hostile art — a link out of its folder, a FIFO, /dev/zero, a 1 GB sparse file, a non-image, a folder — gives no art and no hang; every listen is recorded")
    func hostile() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "hostile")
        try await player.waitUntilFollowed(by: client)
        let outside = try TemporaryDirectory(prefix: "outside"), folder = try TemporaryDirectory(prefix: "hostile-art")
        #expect(FileManager.default.createFile(atPath: outside.appending("secret.png"), contents: Data(Self.png)))
        try FileManager.default.createSymbolicLink(atPath: folder.appending("link.png"), withDestinationPath: outside.appending("secret.png"))
        #expect(mkfifo(folder.appending("fifo.png"), 0o600) == 0)
        #expect(FileManager.default.createFile(atPath: folder.appending("sparse.png"), contents: Data(Self.png)))
        #expect(truncate(folder.appending("sparse.png"), 1 << 30) == 0)
        #expect(FileManager.default.createFile(atPath: folder.appending("text.png"), contents: Data("plain text".utf8)))
        try FileManager.default.createDirectory(atPath: folder.appending("dir.png"), withIntermediateDirectories: false)
        let paths = ["link.png", "fifo.png", "sparse.png", "text.png", "dir.png"].map(folder.appending) + ["/dev/zero"]
        for (index, path) in paths.enumerated() {
            try await player.playThrough(ScriptedPlayer.metadata(title: "Hostile \(index)", extra: ["mpris:artUrl": .string("file://" + path)]),
                                         for: .milliseconds(2200), seenBy: client)
        }
        let assets = try await client.recentMedia()
        #expect(assets.count == paths.count && assets.allSatisfy { $0.artwork == nil }, "\(assets.map { ($0.title, $0.artwork) })")
        #expect(Self.artFiles(broker).isEmpty)
        try broker.stop()
    }

    @Test("a purge deletes the art files no remaining listen names")
    func purgeDeletesArt() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "art")
        try await player.waitUntilFollowed(by: client)
        for (index, seed) in ["one", "two"].enumerated() {
            let data = "data:image/png;base64," + Data(Self.png + Array(seed.utf8)).base64EncodedString()
            try await player.playThrough(ScriptedPlayer.metadata(title: "Art \(index)", extra: ["mpris:artUrl": .string(data)]),
                                         for: .milliseconds(2500), seenBy: client)
        }
        #expect(Self.artFiles(broker).count == 2)
        let newest = try #require(try await client.recentMedia().first)
        _ = try await client.purge(.range(since: newest.date, until: nil))
        #expect(Self.artFiles(broker).count == 1)
        _ = try await client.purge(.all)
        #expect(Self.artFiles(broker).isEmpty)
        try broker.stop()
    }
}
