import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// mpris-quirks.md 1–6 on the bus: the malformed and odd values real players send, each recorded
/// exactly as the contract says — or not at all.
@Suite struct QuirkShapeTests {
    func start(_ bus: PrivateBus) throws -> RunningBroker { try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"]) }

    @Test("quirk 1: an artist sent as a plain string is one artist, and one bad key does not cost the others")
    func artistAsString() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "firefox")
        let heard = try await player.playThrough(.vardict([
            "mpris:trackid": .objectPath("/org/mpris/MediaPlayer2/firefox"),
            "xesam:title": .string("Plain String Artist"), "xesam:artist": .string("Solo Singer"),
            "xesam:album": .int32(7), "xesam:genre": .string("Jazz"), "mpris:length": .int64(180_000_000),
        ]), seenBy: client)
        let assets = try await broker.assets(client)
        try #require(assets.count == 1, "\(assets)")
        #expect(assets[0].title == "Plain String Artist")
        #expect(assets[0].artists == ["Solo Singer"])
        #expect(assets[0].artist == "Solo Singer")
        #expect(assets[0].album == nil, "an album of the wrong type is absent, not a crash")
        #expect(assets[0].length == .seconds(180))
        #expect(assets[0].appID == "firefox")
        #expect(isClose(assets[0].listened, heard), "listened \(String(describing: assets[0].listened)), heard \(heard)")
    }

    @Test("quirk 2: mpris:length as t, d, a numeric string, a negative i, milliseconds or absurd; revised mid-stream")
    func lengthShapes() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "lengths")
        let cases: [(String, DBusValue, Duration?)] = [
            ("Spotify t", .uint64(200_000_000), .seconds(200)),
            ("smplayer d", .double(181_500_000.4), .microseconds(181_500_000)),
            ("Amberol string", .string("240000000"), .seconds(240)),
            ("Cantata negative", .int32(-5), nil),
            ("DeaDBeeF milliseconds", .int64(215_000), nil),
            ("Absurd", .int64(Int64.max), nil),
        ]
        for (title, length, _) in cases {
            try await player.playThrough(ScriptedPlayer.metadata(title: title, extra: ["mpris:length": length]),
                                      for: .milliseconds(600), seenBy: client)
        }
        // mpv revises the length of the track it plays: one listen, with the last length.
        try player.set(["Metadata": ScriptedPlayer.metadata(title: "mpv revised", length: 100_000_000),
                        "PlaybackStatus": .string("Playing")])
        try await player.waitUntilSeen(by: client, as: "Playing")
        try await PlayClock().play(for: .milliseconds(600))
        try player.set(["Metadata": ScriptedPlayer.metadata(title: "mpv revised", length: 123_000_000)])
        try await PlayClock().play(for: .milliseconds(100))
        try player.stop()
        try await player.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client).reversed().map { $0 }
        #expect(assets.map(\.title) == cases.map(\.0) + ["mpv revised"])
        for (asset, expected) in zip(assets, cases) {
            #expect(asset.length == expected.2, "\(expected.0): \(String(describing: asset.length))")
        }
        #expect(assets.last?.length == .seconds(123))
    }

    @Test("quirk 3: a track id sent as a string (Spotify) is read, and tells the kind")
    func trackIDAsString() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "spotify")
        let heard = try await player.playThrough(.vardict([
            "mpris:trackid": .string("spotify:track:4uLU6hMCjMI75M1A2tKUQC"), "xesam:title": .string("Never Gonna Give You Up"),
            "xesam:artist": .strings(["Rick Astley"]), "xesam:album": .string("Whenever You Need Somebody"),
            "mpris:length": .uint64(213_000_000),
        ]), seenBy: client)
        let assets = try await broker.assets(client)
        try #require(assets.count == 1, "\(assets)")
        #expect(assets[0].title == "Never Gonna Give You Up")
        #expect(assets[0].kind == .music)
        #expect(assets[0].length == .seconds(213))
        #expect(isClose(assets[0].listened, heard))
    }

    @Test("quirk 4: one track id for every track (Firefox) and no track id at all (Strawberry) still tell tracks apart")
    func trackIDNotUnique() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let firefox = try await ScriptedPlayer(bus: bus, name: "firefox")
        let clock = PlayClock()
        var began = clock.now
        try firefox.set(["Metadata": ScriptedPlayer.metadata(title: "First Video", trackID: "/org/mpris/MediaPlayer2/firefox"),
                         "PlaybackStatus": .string("Playing")])
        try await firefox.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(800))
        try firefox.set(["Metadata": ScriptedPlayer.metadata(title: "Second Video", trackID: "/org/mpris/MediaPlayer2/firefox")])
        let firstHeard = clock.now - began
        began = clock.now
        try await clock.play(for: .milliseconds(800))
        try firefox.stop()
        let secondHeard = clock.now - began
        try await firefox.waitUntilSeen(by: client, as: "Stopped")

        let strawberry = try await ScriptedPlayer(bus: bus, name: "strawberry")
        var noID: [String: DBusValue] = ["xesam:title": .string("No Id Song"), "xesam:artist": .strings(["Band"])]
        try await strawberry.playThrough(.vardict(noID), seenBy: client)
        noID["xesam:title"] = .string("Another No Id Song")
        try await strawberry.playThrough(.vardict(noID), seenBy: client)

        let assets = try await broker.assets(client).reversed().map { $0 }
        #expect(assets.map(\.title) == ["First Video", "Second Video", "No Id Song", "Another No Id Song"])
        #expect(assets.map(\.appID) == ["firefox", "firefox", "strawberry", "strawberry"])
        #expect(isClose(assets[0].listened, firstHeard))
        #expect(isClose(assets[1].listened, secondHeard))
    }

    @Test("quirk 5: placeholders and empties make no asset; Spotify empty until its first track change is one listen")
    func placeholders() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let firefox = try await ScriptedPlayer(bus: bus, name: "firefox")
        try await firefox.playThrough(.vardict([
            "mpris:trackid": .objectPath("/org/mpris/MediaPlayer2/firefox"),
            "xesam:title": .string("Firefox is playing media"), "xesam:artist": .strings([""]), "xesam:album": .string(""),
        ]), seenBy: client)
        let connect = try await ScriptedPlayer(bus: bus, name: "spotify")
        try await connect.playThrough(.vardict(["xesam:album": .string("Only An Album"), "xesam:title": .string("")]), seenBy: client)
        // Spotify: Playing with empty metadata, then the track arrives.
        let clock = PlayClock()
        let began = clock.now
        try connect.set(["Metadata": .vardict([:]), "PlaybackStatus": .string("Playing")])
        try await connect.waitUntilSeen(by: client, as: "Playing")
        try connect.set(["Metadata": ScriptedPlayer.metadata(title: "Finally A Title")])
        try await clock.play(for: .milliseconds(800))
        try connect.stop()
        let heard = clock.now - began
        try await connect.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client)
        #expect(assets.map(\.title) == ["Finally A Title"])
        #expect(assets.first?.artists == ["Artist"])
        #expect(isClose(assets.first?.listened, heard))
    }

    @Test("quirk 6: huge strings, hundreds of artists, RTL and emoji are stored bounded, never crash")
    func hugeValues() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "hostile")
        let huge = String(repeating: "é", count: 50_000)
        let artists = (1...300).map { "Artist \($0)" }
        try await player.playThrough(.vardict([
            "xesam:title": .string(huge), "xesam:artist": .strings(artists), "xesam:album": .string("אלבום 🎶 ألبوم"),
        ]), seenBy: client)
        let assets = try await broker.assets(client)
        try #require(assets.count == 1)
        let title = try #require(assets[0].title)
        #expect(title.utf8.count <= 1024 && title.utf8.count >= 1000 && title.allSatisfy { $0 == "é" })
        #expect(assets[0].artists == Array(artists.prefix(64)))
        #expect(assets[0].album == "אלבום 🎶 ألبوم")
        #expect(broker.process.isRunning)
    }
}
