import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// mpris-quirks.md 7–12 and 24 on the bus: how real players signal — in pieces, in floods, not at
/// all, only by invalidation, about other interfaces, twice over.
@Suite struct QuirkSignalTests {
    @Test("quirk 7: a title, then the album, then an exact duplicate are one listen with the fullest metadata")
    func partialMetadataFillsIn() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "firefox")
        let clock = PlayClock()
        let began = clock.now
        let partial: DBusValue = .vardict(["mpris:trackid": .objectPath("/org/mpris/MediaPlayer2/firefox"), "xesam:title": .string("Filling In")])
        try player.set(["Metadata": partial, "PlaybackStatus": .string("Playing")])
        try await player.waitUntilSeen(by: client, as: "Playing")
        let full: DBusValue = .vardict([
            "mpris:trackid": .objectPath("/org/mpris/MediaPlayer2/firefox"), "xesam:title": .string("Filling In"),
            "xesam:album": .string("Late Album"), "xesam:artist": .strings(["Late Artist"]), "mpris:length": .int64(90_000_000),
        ])
        try player.set(["Metadata": full])
        try player.set(["Metadata": full])
        try player.set(["Metadata": full, "PlaybackStatus": .string("Playing")])
        try await clock.play(for: .milliseconds(1000))
        try player.stop()
        let heard = clock.now - began
        try await player.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client)
        try #require(assets.count == 1, "\(assets)")
        #expect(assets[0].title == "Filling In")
        #expect(assets[0].album == "Late Album")
        #expect(assets[0].artists == ["Late Artist"])
        #expect(assets[0].length == .seconds(90))
        #expect(isClose(assets[0].listened, heard), "the listen starts at the first signal")
    }

    @Test("quirk 8: a flood of identical signals is one listen and no disk write per signal")
    func flood() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "audacious")
        let clock = PlayClock()
        let began = clock.now
        let metadata = ScriptedPlayer.metadata(title: "Spammy")
        try player.set(["Metadata": metadata, "PlaybackStatus": .string("Playing")])
        try await player.waitUntilSeen(by: client, as: "Playing")
        let wal = broker.databasePath + "-wal"
        let walBefore = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        for _ in 0..<3000 {
            try player.set(["Metadata": metadata, "PlaybackStatus": .string("Playing"), "Rate": .double(1)])
        }
        // Past the 0.5 s threshold however fast the flood went out.
        try await clock.play(for: .milliseconds(800))
        try player.stop()
        let heard = clock.now - began
        try await player.waitUntilSeen(by: client, as: "Stopped", timeout: .seconds(30))
        let flooded = clock.now - began

        let assets = try await broker.assets(client)
        try #require(assets.count == 1, "\(assets)")
        #expect(assets[0].title == "Spammy")
        // Each write appends at least one 4 KiB page to the WAL: 3000 writes would leave megabytes.
        let walAfter = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(walAfter - walBefore < 256 * 1024, "WAL grew from \(walBefore) to \(walAfter) bytes")
        #expect(isClose(assets[0].listened, heard, tolerance: .milliseconds(500) + (flooded - heard)))
        #expect(flooded < .seconds(10), "3000 identical signals took \(flooded)")
    }

    @Test("quirk 9: a player that never signals is found by the safety re-read, track changes and stop included")
    func silentPlayer() async throws {
        let bus = try PrivateBus.start()
        // spotifyd is already playing when the broker starts: only GetAll on discovery sees it.
        let silent = try await ScriptedPlayer(bus: bus, name: "spotifyd")
        silent.update(["Metadata": ScriptedPlayer.metadata(title: "Silent One"), "PlaybackStatus": .string("Playing")])
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5", "--reread-interval", "0.2"])
        // The broker follows players right after it owns its name: the listen starts about now.
        let clock = PlayClock()
        var began = clock.now
        let client = try broker.client()
        try await silent.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(1000))
        silent.update(["Metadata": ScriptedPlayer.metadata(title: "Silent Two")])
        let firstHeard = clock.now - began
        began = clock.now
        try await waitUntil("the re-read finds the second track") {
            try await client.nowPlaying().map(\.title) == ["Silent Two"]
        }
        try await clock.play(for: .milliseconds(1000))
        silent.update(["PlaybackStatus": .string("Stopped")])
        let secondHeard = clock.now - began
        try await silent.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client).reversed().map { $0 }
        #expect(assets.map(\.title) == ["Silent One", "Silent Two"])
        // Each change is seen at the next re-read: at most 0.2 s late, plus a bus round trip.
        #expect(isClose(assets.first?.listened, firstHeard), "\(String(describing: assets.first?.listened)) vs \(firstHeard)")
        #expect(isClose(assets.last?.listened, secondHeard), "\(String(describing: assets.last?.listened)) vs \(secondHeard)")
    }

    @Test("quirk 10: a track change without PlaybackStatus gets the status re-read")
    func statusNotResent() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "lazy")
        try player.play(title: "Paused Here")
        try await player.waitUntilSeen(by: client, as: "Playing")
        try player.set(["PlaybackStatus": .string("Paused")])
        try await player.waitUntilSeen(by: client, as: "Paused")
        // The next track starts playing, but only Metadata is signalled.
        let clock = PlayClock()
        let began = clock.now
        player.update(["PlaybackStatus": .string("Playing")])
        try player.set(["Metadata": ScriptedPlayer.metadata(title: "Next Track Playing")])
        try await player.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(1000))
        try player.stop()
        let heard = clock.now - began
        try await player.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client)
        let next = try #require(assets.first { $0.title == "Next Track Playing" }, "\(assets)")
        #expect(isClose(next.listened, heard))
        #expect(assets.filter { $0.title == "Next Track Playing" }.count == 1)
    }

    @Test("Chromium without range requests: the same track with a growing length is not read again each time")
    func growingLengthIsNoNewTrack() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "chromium.instance4242")
        try await player.waitUntilSeen(by: client, as: "Stopped")
        func metadata(length: Int64) -> DBusValue {
            ScriptedPlayer.metadata(title: "Growing", trackID: "/org/chromium/MediaPlayer2/TrackList/Track1",
                                    extra: ["mpris:length": .int64(length)])
        }
        try player.set(["Metadata": metadata(length: 1_000_000), "PlaybackStatus": .string("Playing")])
        try await player.waitUntilSeen(by: client, as: "Playing")
        let readsBefore = player.playbackStatusReads
        for step in 1...200 {
            try player.set(["Metadata": metadata(length: 1_000_000 + Int64(step) * 23_000)])
            try player.seeked(to: Int64(step) * 23_000)
        }
        try player.stop()
        try await player.waitUntilSeen(by: client, as: "Stopped")
        #expect(player.playbackStatusReads - readsBefore <= 2, "read \(player.playbackStatusReads - readsBefore) times for 200 signals")
        try player.play(title: "Next Track")
        try await player.waitUntilSeen(by: client, as: "Playing")
        let readsThen = player.playbackStatusReads
        try player.set(["Metadata": ScriptedPlayer.metadata(title: "Silent Change")])
        try waitUntil("a new track without its status is read again (quirk 10)") { player.playbackStatusReads > readsThen }
    }

    @Test("quirk 11: properties named only in invalidated_properties are read again, not taken as cleared")
    func invalidatedOnly() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "invalidator")
        try await player.waitUntilSeen(by: client, as: "Stopped")
        let clock = PlayClock()
        let began = clock.now
        try player.invalidate(["Metadata": ScriptedPlayer.metadata(title: "Only Invalidated"), "PlaybackStatus": .string("Playing")])
        try await player.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(1000))
        // Invalidating Metadata alone must not end the listen: it is re-read and unchanged.
        try player.invalidate(["Metadata": ScriptedPlayer.metadata(title: "Only Invalidated")])
        try await clock.play(for: .milliseconds(300))
        try player.invalidate(["PlaybackStatus": .string("Stopped")])
        let heard = clock.now - began
        try await player.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client)
        #expect(assets.map(\.title) == ["Only Invalidated"])
        #expect(isClose(assets.first?.listened, heard))
    }

    @Test("quirk 12: PropertiesChanged for TrackList and Playlists is ignored")
    func otherInterfaces() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "playlists")
        let clock = PlayClock()
        let began = clock.now
        try player.play(title: "Kept Playing")
        try await player.waitUntilSeen(by: client, as: "Playing")
        try player.emitChanged(interface: "org.mpris.MediaPlayer2.TrackList", [
            "Tracks": .array([], of: .objectPath), "Metadata": .string("garbage"), "PlaybackStatus": .string("Stopped"),
        ])
        try player.emitChanged(interface: "org.mpris.MediaPlayer2.Playlists", [
            "ActivePlaylist": .structure([.boolean(false), .structure([.objectPath("/"), .string(""), .string("")])]),
            "PlaybackStatus": .string("Stopped"),
        ])
        try await clock.play(for: .milliseconds(1000))
        #expect(try await client.status().players.first?.playbackStatus == "Playing")
        try player.stop()
        let heard = clock.now - began
        try await player.waitUntilSeen(by: client, as: "Stopped")
        let assets = try await broker.assets(client)
        #expect(assets.map(\.title) == ["Kept Playing"])
        #expect(isClose(assets.first?.listened, heard))
        #expect(broker.process.isRunning)
    }

    @Test("quirk 24: every signal of a listen sent twice over adds no second asset")
    func replayedSequence() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "doubler")
        let clock = PlayClock()
        let began = clock.now
        for _ in 0..<2 { try player.play(title: "Said Twice") }
        try await player.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(800))
        for _ in 0..<2 { try player.set(["PlaybackStatus": .string("Paused")]) }
        let heard = clock.now - began
        try await player.waitUntilSeen(by: client, as: "Paused")
        for _ in 0..<2 { try player.stop() }
        try await player.waitUntilSeen(by: client, as: "Stopped")
        // The whole sequence again, as a scrobbler re-reading a log would: a stopped player's
        // metadata makes nothing, and Stopped twice ends nothing twice.
        for _ in 0..<2 { try player.set(["Metadata": ScriptedPlayer.metadata(title: "Said Twice")]) }
        for _ in 0..<2 { try player.stop() }
        try await player.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client)
        #expect(assets.map(\.title) == ["Said Twice"])
        #expect(isClose(assets.first?.listened, heard))
    }
}
