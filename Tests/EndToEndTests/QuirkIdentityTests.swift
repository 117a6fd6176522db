import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// mpris-quirks.md 13–16 and issue 3's "one listen per song": instance names, proxies that mirror
/// other players, a player restarting under its name, two players at once, and one app under
/// several names or connections — plus the bounds on names and players.
@Suite struct QuirkIdentityTests {
    func start(_ bus: PrivateBus) throws -> RunningBroker { try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"]) }

    @Test("quirk 13: instance names map to one app id without the suffix")
    func instanceNames() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        for (name, title) in [("chromium.instance6013", "Chromium Song"), ("firefox.instance_1_66", "Firefox Song"),
                              ("brave.instance121648", "Brave Song"), ("chromium.instance7001", "Second Chromium Song")] {
            let player = try await ScriptedPlayer(bus: bus, name: name)
            try await player.playThrough(ScriptedPlayer.metadata(title: title), for: .milliseconds(600), seenBy: client)
        }
        let assets = try await broker.assets(client).reversed().map { $0 }
        #expect(assets.map(\.title) == ["Chromium Song", "Firefox Song", "Brave Song", "Second Chromium Song"])
        #expect(assets.map(\.appID) == ["chromium", "firefox", "brave", "chromium"])
        #expect(try await client.apps().first { $0.appID == "chromium" }?.listens == 2)
    }

    @Test("quirk 14: playerctld is never followed and never a source")
    func playerctldIgnored() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let mirror = try await ScriptedPlayer(bus: bus, name: "playerctld")
        let player = try await ScriptedPlayer(bus: bus, name: "mpd")
        try player.play(title: "Mirrored")
        try mirror.play(title: "Mirrored")
        try await player.waitUntilSeen(by: client, as: "Playing")
        try await PlayClock().play(for: .milliseconds(800))
        try mirror.stop()
        try player.stop()
        try await player.waitUntilSeen(by: client, as: "Stopped")
        #expect(try await client.status().players.map(\.busName) == ["org.mpris.MediaPlayer2.mpd"])
        let assets = try await broker.assets(client)
        #expect(assets.map(\.title) == ["Mirrored"])
        #expect(assets.map(\.appID) == ["mpd"])
    }

    /// The original and a proxy play the same song at once; `proxyStopsFirst` says which ends first.
    func mirrored(proxy proxyName: String, original originalName: String, proxyStopsFirst: Bool) async throws -> ([GenericMedia], Duration) {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let original = try await ScriptedPlayer(bus: bus, name: originalName)
        let proxy = try await ScriptedPlayer(bus: bus, name: proxyName)
        let clock = PlayClock()
        let began = clock.now
        try original.play(title: "One Song", artist: "Band", album: "Record")
        // The mirror makes up its own track id, and may lag a little.
        try proxy.set(["Metadata": ScriptedPlayer.metadata(title: "One Song", artist: "Band", album: "Record",
                                                           trackID: "/org/kde/mirror/track/1"),
                       "PlaybackStatus": .string("Playing")])
        try await original.waitUntilSeen(by: client, as: "Playing")
        try await proxy.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(1000))
        let (first, second) = proxyStopsFirst ? (proxy, original) : (original, proxy)
        try first.stop()
        try await first.waitUntilSeen(by: client, as: "Stopped")
        let heard = clock.now - began
        try await clock.play(for: .milliseconds(300))
        try second.stop()
        try await second.waitUntilSeen(by: client, as: "Stopped")
        return (try await broker.assets(client), heard)
    }

    @Test("quirk 14: KDE Connect mirroring a player is not counted twice, whichever stops first; the original is preferred",
          arguments: [true, false])
    func kdeConnectMirror(proxyStopsFirst: Bool) async throws {
        let (assets, heard) = try await mirrored(proxy: "kdeconnect.mpris_0123abcd_4567_89ef", original: "spotify",
                                                 proxyStopsFirst: proxyStopsFirst)
        try #require(assets.count == 1, "\(assets)")
        #expect(assets[0].title == "One Song")
        #expect(assets[0].appID == "spotify")
        if proxyStopsFirst { #expect(isClose(assets[0].listened, heard + .milliseconds(300))) } else { #expect(isClose(assets[0].listened, heard)) }
    }

    @Test("quirk 14: plasma-browser-integration's copy of a browser's media is not counted twice")
    func plasmaBrowserIntegration() async throws {
        let (assets, _) = try await mirrored(proxy: "plasma-browser-integration", original: "firefox.instance_1_66", proxyStopsFirst: false)
        #expect(assets.map(\.appID) == ["firefox"])
    }

    @Test("quirk 14: BlueZ mpris-proxy (named after the device) and KDE Connect mirroring one phone count once")
    func bluetoothAndKDEConnect() async throws {
        let (assets, _) = try await mirrored(proxy: "kdeconnect.mpris_phone", original: "Galaxy_S21", proxyStopsFirst: true)
        #expect(assets.map(\.title) == ["One Song"])
        #expect(assets.map(\.appID) == ["Galaxy_S21"], "mpris-proxy cannot be told by name: it counts as the original")
    }

    @Test("quirk 15: a player that quits and restarts under the same name: the new owner ends the old listen")
    func restartUnderSameName() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let first = try await ScriptedPlayer(bus: bus, name: "quodlibet")
        let clock = PlayClock()
        let began = clock.now
        try first.play(title: "Before Restart")
        try await first.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(800))
        // The old process lets go of its name without a Stop and keeps signalling: nobody listens.
        try await first.release("quodlibet")
        let firstHeard = clock.now - began
        try await waitUntil("the broker stops following the old owner") { try await client.status().players.isEmpty }
        try first.play(title: "Ghost Of The Old Process")
        let second = try await ScriptedPlayer(bus: bus, name: "quodlibet")
        try second.play(title: "After Restart")
        try await second.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(800))
        try second.stop()
        try await second.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client).reversed().map { $0 }
        #expect(assets.map(\.title) == ["Before Restart", "After Restart"])
        #expect(isClose(assets.first?.listened, firstHeard))
    }

    @Test("quirk 16: two players at once each have their own listen")
    func twoPlayersAtOnce() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let music = try await ScriptedPlayer(bus: bus, name: "rhythmbox")
        let video = try await ScriptedPlayer(bus: bus, name: "totem")
        let clock = PlayClock()
        let began = clock.now
        try music.play(title: "Background Music")
        try await music.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(500))
        let videoBegan = clock.now
        try video.play(title: "A Video")
        try await video.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(800))
        try video.stop()
        let videoHeard = clock.now - videoBegan
        try await clock.play(for: .milliseconds(300))
        try music.stop()
        let musicHeard = clock.now - began
        try await music.waitUntilSeen(by: client, as: "Stopped")
        try await video.waitUntilSeen(by: client, as: "Stopped")

        let assets = try await broker.assets(client)
        let musicAsset = try #require(assets.first { $0.title == "Background Music" })
        let videoAsset = try #require(assets.first { $0.title == "A Video" })
        #expect(assets.count == 2)
        #expect(musicAsset.appID == "rhythmbox" && videoAsset.appID == "totem")
        #expect(isClose(musicAsset.listened, musicHeard))
        #expect(isClose(videoAsset.listened, videoHeard))
    }

    @Test("one process owning …vlc and …vlc.instance1234 on one connection and signalling on both: one listen")
    func severalNamesOneConnection() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let vlc = try await ScriptedPlayer(bus: bus, name: "vlc")
        try await vlc.own("vlc.instance1234")
        let clock = PlayClock()
        let began = clock.now
        try vlc.play(title: "Once Only")
        try vlc.play(title: "Once Only")
        try await vlc.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(800))
        try vlc.stop()
        try vlc.stop()
        let heard = clock.now - began
        try await vlc.waitUntilSeen(by: client, as: "Stopped")
        let followed = try await client.status().players
        #expect(followed.map(\.busName) == ["org.mpris.MediaPlayer2.vlc", "org.mpris.MediaPlayer2.vlc.instance1234"])
        #expect(Set(followed.compactMap(\.appID)) == ["vlc"])
        let assets = try await broker.assets(client)
        #expect(assets.map(\.title) == ["Once Only"])
        #expect(assets.map(\.appID) == ["vlc"])
        #expect(isClose(assets.first?.listened, heard))
    }

    @Test("one app on several connections (one process) signalling the same track: one listen")
    func severalConnectionsOneApp() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let main = try await ScriptedPlayer(bus: bus, name: "vlc")
        let other = try await ScriptedPlayer(bus: bus, name: "vlc.instance99")
        let clock = PlayClock()
        let began = clock.now
        try main.play(title: "Shared Track")
        try other.play(title: "Shared Track")
        try await main.waitUntilSeen(by: client, as: "Playing")
        try await other.waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: .milliseconds(800))
        try main.stop()
        try other.stop()
        let heard = clock.now - began
        try await main.waitUntilSeen(by: client, as: "Stopped")
        try await other.waitUntilSeen(by: client, as: "Stopped")
        let assets = try await broker.assets(client)
        #expect(assets.map(\.title) == ["Shared Track"])
        #expect(assets.map(\.appID) == ["vlc"])
        #expect(isClose(assets.first?.listened, heard))
    }

    @Test("a connection is followed under at most 64 names, with one log line for the rest")
    func nameLimit() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let greedy = try await ScriptedPlayer(bus: bus, name: "greedy")
        for index in 1...70 { try await greedy.own("greedy.instance\(index)") }
        try await waitUntil("the broker follows 64 names") { try await client.status().players.count == 64 }
        try greedy.play(title: "Still Counted")
        try greedy.play(title: "Still Counted")
        try await greedy.waitUntilSeen(by: client, as: "Playing")
        try await PlayClock().play(for: .milliseconds(600))
        try greedy.stop()
        try await greedy.waitUntilSeen(by: client, as: "Stopped")
        #expect(try await client.status().players.count == 64)
        #expect(broker.logLines(containing: "more than 64 MPRIS names") == 1)
        #expect(try await broker.assets(client).map(\.title) == ["Still Counted"])
    }
}
