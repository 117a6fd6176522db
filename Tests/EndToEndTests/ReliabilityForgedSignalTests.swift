import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// Issue 6 §1: any process can emit a `PropertiesChanged` that looks exactly like a player's. The
/// broker believes MPRIS signals only from the unique name that owns an `org.mpris.MediaPlayer2.*`
/// name by its own `NameOwnerChanged` map, and only for `/org/mpris/MediaPlayer2`. Each test counts
/// the rows in the database file itself.
@Suite struct ReliabilityForgedSignalTests {
    static let mprisPath: ObjectPath = "/org/mpris/MediaPlayer2"

    static func perfectMetadata(_ title: String) -> DBusValue {
        .vardict([
            "mpris:trackid": .objectPath("/org/mpris/MediaPlayer2/Track/1"),
            "xesam:title": .string(title), "xesam:artist": .strings(["Forger"]), "xesam:album": .string("Lies"),
            "mpris:length": .int64(200_000_000),
        ])
    }

    /// A `PropertiesChanged` of the Player interface on `path`, as a player sends it.
    static func propertiesChanged(_ changes: [String: DBusValue], path: ObjectPath = mprisPath,
                                  destination: BusName? = nil) -> SignalEmission {
        SignalEmission(path: path, interface: .properties, member: "PropertiesChanged",
                       arguments: [.string("org.mpris.MediaPlayer2.Player"), .vardict(changes), .strings([])],
                       destination: destination)
    }

    /// A whole listen, forged: metadata and Playing, a seek, time passing, then Stopped.
    static func forgeListen(on connection: BusConnection, title: String, path: ObjectPath = mprisPath,
                            destination: BusName? = nil) async throws {
        try connection.emit(propertiesChanged(["Metadata": perfectMetadata(title), "PlaybackStatus": .string("Playing")],
                                              path: path, destination: destination))
        try connection.emit(SignalEmission(path: path, interface: "org.mpris.MediaPlayer2.Player", member: "Seeked",
                                           arguments: [.int64(100_000_000)], destination: destination))
        let clock = ContinuousClock()
        // The broker runs with --min-listen 0: any time Playing would record a listen. (The seek goes
        // past the start: one back to the start after a qualifying listen is a repeat, a second listen.)
        try await clock.sleep(until: clock.now + .milliseconds(300))
        try connection.emit(propertiesChanged(["PlaybackStatus": .string("Stopped")], path: path, destination: destination))
    }

    /// A broker that records any time played (`--min-listen 0`) and a scripted player it follows, stopped.
    func brokerWithStoppedPlayer(_ name: String) async throws -> (PrivateBus, RunningBroker, MediaBrokerClient, ScriptedPlayer) {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: name)
        try await waitUntil("the broker follows the stopped player") {
            try await client.status().players.contains { $0.busName == player.busName && $0.playbackStatus == "Stopped" }
        }
        return (bus, broker, client, player)
    }

    @Test("a process that owns no player name forges a perfect PropertiesChanged and Seeked naming a real, stopped player: nothing is recorded")
    func forgerIsIgnored() async throws {
        let (bus, broker, client, victim) = try await brokerWithStoppedPlayer("victim")
        let forger = try BusConnection.connect(to: bus.address)
        defer { forger.close() }

        // A forged NameOwnerChanged claiming the player's name first: only the bus driver may send
        // it, so the broker must not take the forger for the player's new owner.
        try forger.emit(SignalEmission(path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                                       arguments: [.string(victim.busName), .string(victim.connection.uniqueName), .string(forger.uniqueName)]))
        // Broadcast, as players do, and sent straight to the broker.
        try await Self.forgeListen(on: forger, title: "Forged Broadcast")
        try await Self.forgeListen(on: forger, title: "Forged Unicast", destination: "org.mediabroker.MediaBroker1")
        try await Reliability.sync(forger)

        let status = try await client.status()
        #expect(status.players.map(\.busName) == [victim.busName], "the forger is not followed as a player")
        #expect(status.players.first?.playbackStatus == "Stopped", "the forged Playing changed the victim's status")
        #expect(try await client.nowPlaying().isEmpty)
        #expect(try broker.rows() == 0, "a forged listen was recorded")
        #expect(try broker.rows("open_listens") == 0, "a forged listen was checkpointed")

        // The control: the same signals from the player itself are recorded, so the test can fail.
        try await Self.forgeListen(on: victim.connection, title: "Real Listen")
        try await Reliability.sync(victim.connection)
        do {
            try waitUntil("the real listen is recorded") { try broker.rows() == 1 }
        } catch {
            Issue.record("broker said: \(broker.process.standardError)")
            throw error
        }
        #expect(try await client.recentMedia().map(\.title) == ["Real Listen"])
        #expect(try broker.stop() == .exited(0))
    }

    @Test("a signal from the real player for another object path is ignored")
    func otherPathIsIgnored() async throws {
        let (_, broker, client, player) = try await brokerWithStoppedPlayer("pathy")
        for path: ObjectPath in ["/org/mpris/MediaPlayer2/Other", "/", "/org/mpris"] {
            try await Self.forgeListen(on: player.connection, title: "Elsewhere \(path)", path: path)
            try await Self.forgeListen(on: player.connection, title: "Elsewhere unicast \(path)", path: path,
                                       destination: "org.mediabroker.MediaBroker1")
        }
        try await Reliability.sync(player.connection)
        #expect(try await client.status().players.first?.playbackStatus == "Stopped")
        #expect(try broker.rows() == 0)
        #expect(try broker.rows("open_listens") == 0)
        #expect(try broker.stop() == .exited(0))
    }

    @Test("a connection that released its player name is no longer believed")
    func goneOwnerIsIgnored() async throws {
        // A connection that owned a player name, gave it up and stayed on the bus.
        let (_, broker, client, former) = try await brokerWithStoppedPlayer("former")
        _ = try await former.connection.call(MethodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "ReleaseName", arguments: [.string(former.busName)]))
        try await waitUntil("the broker no longer follows it") { try await client.status().players.isEmpty }
        try await Self.forgeListen(on: former.connection, title: "After Release")
        try await Reliability.sync(former.connection)
        #expect(try await client.status().players.isEmpty)
        #expect(try broker.rows() == 0)
        #expect(try broker.stop() == .exited(0))
    }
}
