import Foundation
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
    private let root: [String: DBusValue]

    private final class Values: Sendable {
        let values: Mutex<[String: DBusValue]>
        init(_ initial: [String: DBusValue]) { values = Mutex(initial) }
        var snapshot: [String: DBusValue] { values.withLock { $0 } }
    }

    /// Connects to `bus`, exports the player and takes `org.mpris.MediaPlayer2.<name>`.
    init(bus: PrivateBus, name: String, identity: String = "Scripted Player", desktopEntry: String? = nil) async throws {
        connection = try BusConnection.connect(to: bus.address)
        busName = "org.mpris.MediaPlayer2." + name
        var root: [String: DBusValue] = ["Identity": .string(identity), "CanQuit": .boolean(false)]
        if let desktopEntry { root["DesktopEntry"] = .string(desktopEntry) }
        self.root = root
        state = Values(["PlaybackStatus": .string("Stopped"), "Rate": .double(1), "Metadata": .vardict([:])])
        let state = state
        let root2 = root
        func properties(_ interface: InterfaceName, _ values: @escaping @Sendable () -> [String: DBusValue]) -> ExportedInterface {
            ExportedInterface(name: interface, properties: ["PlaybackStatus", "Rate", "Metadata", "Identity", "DesktopEntry", "CanQuit"].compactMap { name in
                guard values()[name] != nil else { return nil }
                let signature = values()[name]?.signature ?? .string
                return ExportedProperty(MemberName(stringLiteral: name), signature: signature, get: { values()[name] ?? .string("") })
            })
        }
        connection.export(ExportedObject(path: Self.path, interfaces: [
            properties(Self.rootInterface) { root2 },
            properties(Self.playerInterface) { state.snapshot },
        ]))
        let result = try await connection.requestName(BusName(busName))
        guard result == .primaryOwner else { throw TestSupportError("could not own \(busName): \(result)") }
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
}
