import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// mpris-quirks.md 19, 22 and 23 on the bus: stopping with metadata kept, repeat-one, adverts.
@Suite struct QuirkPlaybackTests {
    func start(_ bus: PrivateBus) throws -> RunningBroker { try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"]) }

    @Test("quirk 19: Stopped ends the listen; a stopped player's kept metadata and NoTrack make no asset")
    func stoppedKeepsMetadata() async throws {
        let bus = try PrivateBus.start()
        // VLC keeps its metadata when stopped: it is on the bus, stopped, with a track, before the broker starts.
        let vlc = try await ScriptedPlayer(bus: bus, name: "vlc")
        vlc.update(["Metadata": ScriptedPlayer.metadata(title: "Stopped Before We Came")])
        let broker = try start(bus)
        let client = try broker.client()
        try await vlc.waitUntilSeen(by: client, as: "Stopped")
        #expect(try await client.nowPlaying().isEmpty)

        let clock = PlayClock()
        // Stopping keeps the metadata, as VLC does.
        let heard = try await vlc.playThrough(ScriptedPlayer.metadata(title: "Played Then Stopped"), seenBy: client)
        // Kept metadata while stopped: a rate change, the same metadata again — nothing starts.
        try vlc.set(["Rate": .double(1.0), "Metadata": ScriptedPlayer.metadata(title: "Played Then Stopped")])
        try await clock.play(for: .milliseconds(600))
        // Playing the MPRIS "no track": nothing either.
        try vlc.set(["Metadata": .vardict(["mpris:trackid": .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack"),
                                            "xesam:title": .string("No Track")]),
                     "PlaybackStatus": .string("Playing")])
        try await vlc.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(800))
        try vlc.stop()
        try await vlc.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client)
        #expect(assets.map(\.title) == ["Played Then Stopped"])
        #expect(isClose(assets.first?.listened, heard))
    }

    @Test("quirk 22: repeat-one signalled only by a Seeked to 0 after a qualifying listen is a new listen")
    func repeatOne() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "rescrobbled")
        let clock = PlayClock()
        let began = clock.now
        try player.play(title: "On Repeat")
        try await player.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(900))
        try player.seeked(to: 0)
        let firstHeard = clock.now - began
        let loopBegan = clock.now
        try await waitUntil("the first loop is recorded") { try await broker.assets(client).count == 1 }
        try await clock.play(for: .milliseconds(900))
        try player.stop()
        let secondHeard = clock.now - loopBegan
        try await player.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client).reversed().map { $0 }
        #expect(assets.map(\.title) == ["On Repeat", "On Repeat"])
        #expect(isClose(assets.first?.listened, firstHeard))
        #expect(isClose(assets.last?.listened, secondHeard))
        #expect(try #require(assets.last?.date) >= (try #require(assets.first?.ended)))
    }

    @Test("quirk 23: Spotify adverts are not recorded; the song after them is")
    func adverts() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let spotify = try await ScriptedPlayer(bus: bus, name: "spotify")
        let advert: DBusValue = .vardict([
            "mpris:trackid": .string("spotify:ad:000000012c603a6600000020316a17a1"), "xesam:title": .string("Advertisement"),
            "xesam:artist": .strings([""]), "mpris:length": .uint64(30_000_000),
        ])
        try spotify.set(["Metadata": advert, "PlaybackStatus": .string("Playing")])
        try await spotify.waitUntilSeen(by: client, as: "Playing")
        try await PlayClock().play(for: .milliseconds(800))
        let clock = PlayClock()
        let began = clock.now
        try spotify.set(["Metadata": .vardict([
            "mpris:trackid": .string("spotify:track:7GhIk7Il098yCjg4BQjzvb"), "xesam:title": .string("Real Song"),
            "xesam:artist": .strings(["Real Artist"]), "mpris:length": .uint64(200_000_000),
        ])])
        try await waitUntil("the song replaces the advert") { try await client.nowPlaying().map(\.title) == ["Real Song"] }
        try await clock.play(for: .milliseconds(800))
        try spotify.stop()
        let heard = clock.now - began
        try await spotify.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client)
        #expect(assets.map(\.title) == ["Real Song"])
        #expect(assets.first?.kind == .music)
        #expect(isClose(assets.first?.listened, heard))
    }
}
