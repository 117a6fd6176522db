public import FoundationEssentials
import MediaBrokerVersion
import SwiftDBus

/// A journaling app's connection to the media broker on the session bus.
///
/// ```swift
/// let broker = try MediaBrokerClient()
/// let today = Calendar.current.startOfDay(for: .now)
/// for media in try await broker.recentMedia(since: today) {
///     print(media.title ?? "?", media.artist ?? "", media.date)
/// }
/// ```
///
/// The broker is started by D-Bus activation on the first call when it is installed but not
/// running. Every method can be called from any task.
public final class MediaBrokerClient: Sendable {
    /// The well-known name, object path and interface of the broker (the fixed D-Bus contract).
    public static let busName = "org.mediabroker.MediaBroker1"
    public static let objectPath = "/org/mediabroker/MediaBroker1"
    public static let interfaceName = "org.mediabroker.MediaBroker1"

    /// The version of this client library.
    public static let version = MediaBrokerVersion.current

    let connection: BusConnection
    private let timeout: Duration

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`).
    public convenience init(timeout: Duration = .seconds(25)) throws(MediaBrokerError) {
        do {
            self.init(connection: try BusConnection.session(), timeout: timeout)
        } catch {
            throw .busUnavailable(error.message.isEmpty ? error.name.rawValue : error.message)
        }
    }

    /// Connects to the bus at `address` (a D-Bus address such as `unix:path=/run/user/1000/bus`).
    public convenience init(address: String, timeout: Duration = .seconds(25)) throws(MediaBrokerError) {
        do {
            self.init(connection: try BusConnection.connect(to: address), timeout: timeout)
        } catch {
            throw .busUnavailable(error.message.isEmpty ? error.name.rawValue : error.message)
        }
    }

    private init(connection: BusConnection, timeout: Duration) {
        self.connection = connection
        self.timeout = timeout
    }

    deinit { connection.close() }

    /// What the person listened to, newest first (by start, then id).
    ///
    /// - Parameters:
    ///   - since: only listens that started at or after this moment.
    ///   - until: only listens that started before this moment.
    ///   - limit: at most this many, 1…1000.
    ///   - appID: only this app (a desktop-file id such as `mpv`).
    ///   - before: the ``GenericMedia/id`` of the last asset of the previous page, to continue after it.
    /// - Throws: ``MediaBrokerError/invalidArguments(_:)`` for a limit out of range or a bad range;
    ///   ``MediaBrokerError/brokerNotRunning`` when no broker can be reached.
    public func recentMedia(
        since: Date? = nil, until: Date? = nil, limit: Int = 50, appID: String? = nil, before: Int64? = nil
    ) async throws(MediaBrokerError) -> [GenericMedia] {
        guard (1...1000).contains(limit) else { throw .invalidArguments("limit must be 1…1000, not \(limit)") }
        var filter: [String: DBusValue] = ["limit": .uint32(UInt32(limit))]
        if let since { filter["since"] = .int64(since.microsecondsSinceEpoch) }
        if let until { filter["until"] = .int64(until.microsecondsSinceEpoch) }
        if let appID { filter["app_id"] = .string(appID) }
        if let before { filter["before_id"] = .int64(before) }
        return try Self.assets(in: try await callReadingInPlace("RecentMedia", [.vardict(filter)]))
    }

    /// What each active player is playing now, as assets not yet (or not yet finally) recorded.
    public func nowPlaying() async throws(MediaBrokerError) -> [GenericMedia] {
        try Self.assets(in: try await callReadingInPlace("NowPlaying", []))
    }

    /// The broker's version, how many assets it holds and which players it follows.
    public func status() async throws(MediaBrokerError) -> BrokerStatus {
        let reply = try await call("Status", [])
        guard let map = try? reply.first?.vardict() else { throw Self.unexpected("Status") }
        let players = ((try? map["players"]?.array()) ?? []).compactMap { entry -> BrokerStatus.Player? in
            guard let player = try? entry.vardict(), let name = try? player["bus_name"]?.string() else { return nil }
            return BrokerStatus.Player(
                busName: name, appID: try? player["app_id"]?.string(),
                playbackStatus: try? player["playback_status"]?.string())
        }
        let pause: RecordingPause? = if (try? map["paused"]?.boolean()) == true {
            (try? map["paused_until"]?.integer(as: Int64.self)).map { .until(Date(microsecondsSinceEpoch: $0)) } ?? .untilResumed
        } else {
            nil
        }
        return BrokerStatus(
            version: (try? map["version"]?.string()) ?? "unknown",
            assetCount: (try? map["assets"]?.integer(as: Int.self)) ?? 0,
            players: players, pause: pause)
    }

    // MARK: Plumbing

    func call(
        _ member: MemberName, _ arguments: [DBusValue], interface: InterfaceName? = nil, timeout: Duration? = nil
    ) async throws(MediaBrokerError) -> [DBusValue] {
        try await send(member, arguments, interface: interface, decodingReply: true, timeout: timeout).arguments
    }

    /// The reply undecoded, for a caller that reads it where it lies (``assets(in:)``).
    func callReadingInPlace(_ member: MemberName, _ arguments: [DBusValue]) async throws(MediaBrokerError) -> BusMessage {
        try await send(member, arguments, interface: nil, decodingReply: false)
    }

    private func send(
        _ member: MemberName, _ arguments: [DBusValue], interface: InterfaceName?, decodingReply: Bool, timeout: Duration? = nil
    ) async throws(MediaBrokerError) -> BusMessage {
        let call = MethodCall(
            destination: BusName(stringLiteral: Self.busName), path: ObjectPath(stringLiteral: Self.objectPath),
            interface: interface ?? InterfaceName(stringLiteral: Self.interfaceName), member: member, arguments: arguments)
        do {
            return try await connection.call(call, timeout: timeout ?? self.timeout, decodingReply: decodingReply)
        } catch {
            throw MediaBrokerError(error)
        }
    }

    /// The assets of a reply whose first argument is a list of them (`aa{sv}`), read where they
    /// lie, without a tree of values and a dictionary per asset in between. An element that is no
    /// asset is skipped (``GenericMedia/init(reading:)``).
    static func assets(in reply: BusMessage) throws(MediaBrokerError) -> [GenericMedia] {
        var assets: [GenericMedia] = []
        var isList = false
        do {
            try reply.body.read { reader throws(MarshallingError) in
                isList = try reader.elements { element throws(MarshallingError) in
                    if let media = try GenericMedia(reading: &element) { assets.append(media) }
                }
            }
        } catch {
            throw unexpected("a list of assets")
        }
        guard isList else { throw unexpected("a list of assets") }
        return assets
    }

    static func unexpected(_ what: String) -> MediaBrokerError {
        .busFailure(name: "org.mediabroker.MediaBroker1.Error.UnexpectedReply", message: "the broker's reply to \(what) was not understood")
    }
}

extension MediaBrokerError {
    init(_ error: BusError) {
        switch error.name.rawValue {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
             "org.freedesktop.DBus.Error.Spawn.ChildExited", "org.freedesktop.DBus.Error.Spawn.ExecFailed":
            self = .brokerNotRunning
        case "org.freedesktop.DBus.Error.InvalidArgs":
            self = .invalidArguments(error.message)
        case "org.mediabroker.MediaBroker1.Error.MediaDisabled":
            self = .mediaDisabled
        case "org.mediabroker.MediaBroker1.Error.Paused":
            self = .paused
        case "org.mediabroker.MediaBroker1.Error.AppNotAllowed":
            self = .appNotAllowed(error.message)
        case "org.mediabroker.MediaBroker1.Error.AccessDenied":
            self = .accessDenied(error.message)
        case "org.freedesktop.DBus.Error.Disconnected":
            self = .busUnavailable(error.message)
        default:
            self = .busFailure(name: error.name.rawValue, message: error.message)
        }
    }
}

extension Date {
    var microsecondsSinceEpoch: Int64 {
        let value = (timeIntervalSince1970 * 1_000_000).rounded()
        return Int64(exactly: value) ?? (value < 0 ? .min : .max)
    }

    init(microsecondsSinceEpoch value: Int64) {
        self.init(timeIntervalSince1970: Double(value) / 1_000_000)
    }
}
