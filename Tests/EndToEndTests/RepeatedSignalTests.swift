import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// The broker drops a `PropertiesChanged` whose bytes equal the player's last one without decoding
/// it (floods, quirk 8) — but only while nothing else has reached that player: each test sends the
/// same bytes again after something that makes them mean something new, and fails if the broker
/// ignored them.
@Suite struct RepeatedSignalTests {
    static let playing: [String: DBusValue] = ["PlaybackStatus": .string("Playing")]

    @Test("the same signal after a different one is applied")
    func sameAfterDifferent() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "toggler")
        try player.play(title: "Back and Forth")
        try player.set(Self.playing)
        try await player.waitUntilSeen(by: client, as: "Playing")
        try player.set(["PlaybackStatus": .string("Paused")])
        try await player.waitUntilSeen(by: client, as: "Paused")
        try player.set(Self.playing)
        try await player.waitUntilSeen(by: client, as: "Playing")
    }

    @Test("a status learnt by the safety re-read does not make the player's next identical signal a repeat")
    func sameAfterReread() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "2", "--reread-interval", "0.2"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "quiet")
        let track = ScriptedPlayer.metadata(title: "Paused Without a Word")
        try player.set(["Metadata": track, "PlaybackStatus": .string("Playing")])
        try await player.waitUntilSeen(by: client, as: "Playing")
        player.update(["PlaybackStatus": .string("Paused")])
        try await player.waitUntilSeen(by: client, as: "Paused")
        // Byte for byte the first signal, and true again.
        try player.set(["Metadata": track, "PlaybackStatus": .string("Playing")])
        try await player.waitUntilSeen(by: client, as: "Playing")
    }

    @Test("an identical invalidation is re-read each time: the same bytes announce a new value (quirk 11)")
    func invalidationIsNeverARepeat() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "invalidator")
        try player.play(title: "Said Only by Name")
        try await player.waitUntilSeen(by: client, as: "Playing")
        try player.invalidate(["PlaybackStatus": .string("Paused")])
        try await player.waitUntilSeen(by: client, as: "Paused")
        try player.invalidate(["PlaybackStatus": .string("Playing")])
        try await player.waitUntilSeen(by: client, as: "Playing")
        try player.invalidate(["PlaybackStatus": .string("Paused")])
        try await player.waitUntilSeen(by: client, as: "Paused")
    }

    @Test("two players sending the same bytes are each applied")
    func repeatsArePerPlayer() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let client = try broker.client()
        let first = try await ScriptedPlayer(bus: bus, name: "twin1")
        let second = try await ScriptedPlayer(bus: bus, name: "twin2")
        try await first.waitUntilSeen(by: client, as: "Stopped")
        try await second.waitUntilSeen(by: client, as: "Stopped")
        let track = ScriptedPlayer.metadata(title: "Heard Twice", trackID: "/same/track")
        try first.set(["Metadata": track, "PlaybackStatus": .string("Playing")])
        try await first.waitUntilSeen(by: client, as: "Playing")
        try second.set(["Metadata": track, "PlaybackStatus": .string("Playing")])
        try await second.waitUntilSeen(by: client, as: "Playing")
    }

    /// A failed safety re-read is not retried until the player signals again (old and new alike);
    /// that next signal must re-arm it even when it repeats the last one, or a player that recovers
    /// is never read again.
    @Test("after a failed safety re-read, the next signal re-arms it even when it is a repeat")
    func repeatAfterFailedReread() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "2", "--reread-interval", "0.2"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "flaky")
        let signal: [String: DBusValue] = ["Metadata": ScriptedPlayer.metadata(title: "Flaky"), "PlaybackStatus": .string("Playing")]
        try player.set(signal)
        try await player.waitUntilSeen(by: client, as: "Playing")
        let failure = "could not read \(ScriptedPlayer.playerInterface) of \(player.connection.uniqueName):"
        func failedRereads() -> Int { broker.process.standardError.components(separatedBy: failure).count - 1 }

        // A value of the wrong type makes the player's GetAll fail (it declared a string).
        player.update(["PlaybackStatus": .int32(0)])
        try waitUntil("a re-read fails") { failedRereads() == 1 }
        // The signal re-arms the re-read, which fails again; the signal was the last thing applied.
        try Self.announce(signal, by: player)
        try waitUntil("the re-armed re-read fails") { failedRereads() == 2 }
        // Paused, silently: only a re-read can tell, and only the repeat can start one.
        player.update(["PlaybackStatus": .string("Paused")])
        try Self.announce(signal, by: player)
        try await player.waitUntilSeen(by: client, as: "Paused")
    }

    /// Emits `changes` in a `PropertiesChanged` exactly as ``ScriptedPlayer/set(_:invalidated:)``
    /// does, without changing what the player answers to GetAll.
    static func announce(_ changes: [String: DBusValue], by player: ScriptedPlayer) throws {
        try player.connection.emit(SignalEmission(
            path: ScriptedPlayer.path, interface: .properties, member: "PropertiesChanged",
            arguments: [.string(ScriptedPlayer.playerInterface.rawValue), .vardict(changes), .strings([])]))
    }
}
