import Foundation
import MediaDonationClient
import Synchronization
import SwiftDBus
import TestSupport

/// An MPRIS player the test scripts: it owns `org.mpris.MediaPlayer2.<name>`, serves
/// `/org/mpris/MediaPlayer2` (root and Player interfaces) and emits `PropertiesChanged`
/// exactly when the test says — including the malformed and quirky things real players send.
final class ScriptedPlayer: Sendable {
    static let path: ObjectPath = "/org/mpris/MediaPlayer2"
    static let playerInterface: InterfaceName = "org.mpris.MediaPlayer2.Player"
    static let rootInterface: InterfaceName = "org.mpris.MediaPlayer2"

    let connection: BusConnection
    let busName: String
    private let state: Values
    private let object: ExportedObject
    private let statusReads = Counter()

    /// How many times the broker has read the player's `PlaybackStatus` (a `GetAll` or a `Get`).
    var playbackStatusReads: Int { statusReads.value.withLock { $0 } }

    private final class Counter: Sendable {
        let value = Mutex(0)
    }

    private final class Values: Sendable {
        let values: Mutex<[String: DBusValue]>
        init(_ initial: [String: DBusValue]) { values = Mutex(initial) }
        var snapshot: [String: DBusValue] { values.withLock { $0 } }
    }

    /// Connects to `bus`, exports the player and takes `org.mpris.MediaPlayer2.<name>`. With
    /// `exportingLater`, it takes the name first and exports its object only at ``exportObject()``,
    /// as Firefox does (its name is there ~45 ms before its object).
    init(bus: PrivateBus, name: String, identity: String = "Scripted Player", desktopEntry: String? = nil,
         exportingLater: Bool = false) async throws {
        connection = try BusConnection.connect(to: bus.address)
        busName = "org.mpris.MediaPlayer2." + name
        var root: [String: DBusValue] = ["Identity": .string(identity), "CanQuit": .boolean(false)]
        if let desktopEntry { root["DesktopEntry"] = .string(desktopEntry) }
        state = Values(["PlaybackStatus": .string("Stopped"), "Rate": .double(1), "Metadata": .vardict([:])])
        let state = state
        let root2 = root
        let statusReads = statusReads
        func properties(_ interface: InterfaceName, _ values: @escaping @Sendable () -> [String: DBusValue]) -> ExportedInterface {
            ExportedInterface(name: interface, properties: ["PlaybackStatus", "Rate", "Metadata", "Identity", "DesktopEntry", "CanQuit"].compactMap { name in
                guard values()[name] != nil else { return nil }
                let signature = values()[name]?.signature ?? .string
                return ExportedProperty(MemberName(stringLiteral: name), signature: signature, get: {
                    if interface == Self.playerInterface, name == "PlaybackStatus" { statusReads.value.withLock { $0 += 1 } }
                    return values()[name] ?? .string("")
                })
            })
        }
        object = ExportedObject(path: Self.path, interfaces: [
            properties(Self.rootInterface) { root2 },
            properties(Self.playerInterface) { state.snapshot },
        ])
        if !exportingLater { exportObject() }
        let result = try await connection.requestName(BusName(busName))
        guard result == .primaryOwner else { throw TestSupportError("could not own \(busName): \(result)") }
    }

    /// Serves `/org/mpris/MediaPlayer2` from now on.
    func exportObject() { connection.export(object) }

    /// Serves `/org/mpris/MediaPlayer2` with the player interface alone: its root interface never
    /// answers.
    func exportPlayerInterfaceOnly() {
        connection.export(ExportedObject(path: Self.path, interfaces: object.interfaces.filter { $0.name == Self.playerInterface }))
    }

    /// Changes properties and announces them in one `PropertiesChanged`, as players do.
    func set(_ changes: [String: DBusValue], invalidated: [String] = []) throws {
        state.values.withLock { current in for (key, value) in changes { current[key] = value } }
        try connection.emit(SignalEmission(
            path: Self.path, interface: .properties, member: "PropertiesChanged",
            arguments: [.string(Self.playerInterface.rawValue), .vardict(changes), .strings(invalidated)]))
    }

    func play(title: String, artist: String = "Artist", album: String = "Album", length: Int64 = 200_000_000,
              extra: [String: DBusValue] = [:]) throws {
        var metadata: [String: DBusValue] = [
            "mpris:trackid": .objectPath(try ObjectPath("/track/\(abs(title.hashValue))")),
            "xesam:title": .string(title), "xesam:artist": .strings([artist]), "xesam:album": .string(album),
            "mpris:length": .int64(length),
        ]
        for (key, value) in extra { metadata[key] = value }
        try set(["Metadata": .vardict(metadata), "PlaybackStatus": .string("Playing")])
    }

    func stop() throws { try set(["PlaybackStatus": .string("Stopped")]) }

    /// Calls a method on the broker as this player (for `OptOut`/`OptIn`).
    func callBroker(_ member: MemberName) async throws(BusError) {
        _ = try await connection.call(MethodCall(
            destination: "org.mediabroker.MediaBroker1", path: "/org/mediabroker/MediaBroker1",
            interface: "org.mediabroker.MediaBroker1", member: member))
    }

    func quit() { connection.close() }

    /// Changes properties without a signal — what spotifyd does all the time (quirk 9).
    func update(_ changes: [String: DBusValue]) {
        state.values.withLock { current in for (key, value) in changes { current[key] = value } }
    }

    /// Changes properties and names them only in `invalidated_properties`, with an empty changed
    /// map — allowed by the D-Bus spec, done by playerctld (quirk 11).
    func invalidate(_ changes: [String: DBusValue]) throws {
        update(changes)
        try connection.emit(SignalEmission(
            path: Self.path, interface: .properties, member: "PropertiesChanged",
            arguments: [.string(Self.playerInterface.rawValue), .vardict([:]), .strings(changes.keys.sorted())]))
    }

    /// Emits `PropertiesChanged` for another interface (`org.mpris.MediaPlayer2.TrackList`,
    /// `.Playlists`) with whatever `changes` say, without changing the player (quirk 12).
    func emitChanged(interface: String, _ changes: [String: DBusValue]) throws {
        try connection.emit(SignalEmission(
            path: Self.path, interface: .properties, member: "PropertiesChanged",
            arguments: [.string(interface), .vardict(changes), .strings([])]))
    }

    /// The player's `Seeked` signal (position in µs).
    func seeked(to position: Int64) throws {
        try connection.emit(SignalEmission(path: Self.path, interface: Self.playerInterface, member: "Seeked",
                                           arguments: [.int64(position)]))
    }

    /// Takes one more well-known name on the same connection (`vlc` and `vlc.instance1234`).
    func own(_ name: String) async throws {
        let result = try await connection.requestName(BusName("org.mpris.MediaPlayer2." + name))
        guard result == .primaryOwner else { throw TestSupportError("could not own \(name): \(result)") }
    }

    /// Gives up one of its names, staying on the bus.
    func release(_ name: String) async throws {
        _ = try await connection.callBus("ReleaseName", [.string("org.mpris.MediaPlayer2." + name)])
    }

    /// Well-formed MPRIS metadata; `extra` replaces or adds keys (a malformed value, a vendor key).
    static func metadata(title: String, artist: String = "Artist", album: String = "Album", length: Int64 = 200_000_000,
                         trackID: String? = nil, extra: [String: DBusValue] = [:]) -> DBusValue {
        var metadata: [String: DBusValue] = [
            "mpris:trackid": .objectPath(ObjectPath(stringLiteral: trackID ?? "/track/\(abs(title.hashValue))")),
            "xesam:title": .string(title), "xesam:artist": .strings([artist]), "xesam:album": .string(album),
            "mpris:length": .int64(length),
        ]
        for (key, value) in extra { metadata[key] = value }
        return .vardict(metadata)
    }

    /// Waits until `client`'s broker sees this player in `status` (`Playing`, `Paused`,
    /// `Stopped`). After that, everything this player's earlier signals caused is queued in the
    /// store ahead of any later query.
    func waitUntilSeen(by client: MediaBrokerClient, as status: String, timeout: Duration = .seconds(10)) async throws {
        try await waitUntil("the broker sees \(busName) \(status)", timeout: timeout) {
            try await client.status().players.contains { $0.busName == busName && $0.playbackStatus == status }
        }
    }

    /// Plays `metadata` for `duration` of real time, then stops, waiting until `client`'s broker
    /// saw each; returns the real time played, to compare with the asset's `listened`.
    @discardableResult
    func playThrough(_ metadata: DBusValue, for duration: Duration = .milliseconds(800),
                     seenBy client: MediaBrokerClient) async throws -> Duration {
        let clock = PlayClock()
        let began = clock.now
        try set(["Metadata": metadata, "PlaybackStatus": .string("Playing")])
        try await waitUntilSeen(by: client, as: "Playing")
        try await clock.play(for: duration)
        try stop()
        let heard = clock.now - began
        try await waitUntilSeen(by: client, as: "Stopped")
        return heard
    }

    /// Waits until the broker follows this player under its name (any status).
    func waitUntilFollowed(by client: MediaBrokerClient) async throws {
        try await waitUntil("the broker follows \(busName)") {
            try await client.status().players.contains { $0.busName == busName }
        }
    }
}

/// Real time played, measured by the test around what it scripts, to compare with `listened`.
struct PlayClock {
    let clock = ContinuousClock()

    /// Lets `duration` of real time pass: a test asserting `listened` controls real play time.
    func play(for duration: Duration) async throws { try await clock.sleep(for: duration) }

    var now: ContinuousClock.Instant { clock.now }
}

/// Whether `listened` is within 0.5 s of what the test played (`heard`).
func isClose(_ listened: Duration?, _ heard: Duration, tolerance: Duration = .milliseconds(500)) -> Bool {
    guard let listened else { return false }
    return abs((listened - heard) / .seconds(1)) <= tolerance / .seconds(1)
}

extension RunningBroker {
    /// Every asset in the history, newest first (at most 1000).
    func assets(_ client: MediaBrokerClient) async throws -> [GenericMedia] {
        try await client.recentMedia(limit: 1000)
    }

    /// How many lines of the broker's log contain `text`.
    func logLines(containing text: String) -> Int {
        process.standardError.split(separator: "\n").filter { $0.contains(text) }.count

    }
}
