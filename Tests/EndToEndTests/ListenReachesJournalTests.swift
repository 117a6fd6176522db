import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 2's promise, on real parts: a song played in real mpv reaches a journaling app.
@Suite(.serialized) struct ListenReachesJournalTests {
    @Test("a track mpv plays to its end is returned by recentMedia and broker-ctl, and survives a restart")
    func realMPVListenIsRecorded() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let media = try TemporaryDirectory(prefix: "media")
        let track = media.appending("song.ogg")
        try AudioFixture.makeTaggedTrack(at: track, title: "Gymnopédie No. 1", artist: "Erik Satie", album: "Trois Gymnopédies", seconds: 3)

        let before = Date()
        let player = try MPVPlayer.launch(playing: [track], on: bus)
        #expect(try player.process.waitForExit(timeout: .seconds(20)) == .exited(0))
        let after = Date()

        let client = try broker.client()
        try await broker.waitUntilNoPlayers(client)
        let assets = try await client.recentMedia()
        try #require(assets.count == 1, "expected exactly one asset, got \(assets)")
        let asset = assets[0]
        #expect(asset.title == "Gymnopédie No. 1")
        #expect(asset.artist == "Erik Satie")
        #expect(asset.artists == ["Erik Satie"])
        #expect(asset.album == "Trois Gymnopédies")
        #expect(asset.appID == "mpv")
        #expect(asset.source == .mpris)
        // Issue 4 on a real install: the desktop file's Name and mpv's own icon file.
        #expect(asset.appName == desktopName(of: "/usr/share/applications/mpv.desktop"))
        let icon = try #require(asset.appIcon)
        #expect(FileManager.default.fileExists(atPath: icon), "\(icon)")
        #expect(icon.hasPrefix("/") && (icon.hasSuffix("/mpv.svg") || icon.hasSuffix("/mpv.png")), "\(icon)")
        #expect(asset.date >= before.addingTimeInterval(-0.001) && asset.date <= after)
        let listened = try #require(asset.listened)
        #expect(listened >= .seconds(2) && listened <= .seconds(4), "listened \(listened)")

        let cli = try broker.brokerCtl(["recent", "--json"])
        #expect(cli.status == .exited(0), "\(cli.standardError)")
        let lines = cli.standardOutput.split(separator: "\n")
        try #require(lines.count == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(json["title"] as? String == "Gymnopédie No. 1")
        #expect(json["album"] as? String == "Trois Gymnopédies")
        #expect(json["app_id"] as? String == "mpv")
        #expect((json["id"] as? NSNumber)?.int64Value == asset.id)

        #expect(try broker.stop() == .exited(0))
        let restarted = try RunningBroker(bus: bus, data: broker.data)
        let again = try await restarted.client().recentMedia()
        #expect(again == assets)
        #expect(try restarted.stop() == .exited(0))
    }

    func desktopName(of path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("Name=") }.map { String($0.dropFirst(5)) }
    }

    @Test("a track heard for less than the threshold gives no asset")
    func shortListenIsNotRecorded() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "3"])
        let media = try TemporaryDirectory(prefix: "media")
        let track = media.appending("short.ogg")
        try AudioFixture.makeTaggedTrack(at: track, title: "Too Short", artist: "Nobody", album: "Nothing", seconds: 1)

        let player = try MPVPlayer.launch(playing: [track], on: bus)
        try player.waitForBusName()
        #expect(try player.process.waitForExit(timeout: .seconds(20)) == .exited(0))

        let client = try broker.client()
        try await broker.waitUntilNoPlayers(client)
        #expect(try await client.recentMedia().isEmpty)
        #expect(try broker.stop() == .exited(0))
    }
}
