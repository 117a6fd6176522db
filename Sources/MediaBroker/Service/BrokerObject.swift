public import SwiftDBus
import MediaBrokerVersion

/// What the broker's D-Bus object needs from the rest of the daemon. Everything here is called
/// on the connection's thread.
public protocol BrokerState: AnyObject, Sendable {
    /// The listens in progress, as assets not yet recorded.
    func nowPlaying() -> [MediaAsset]
    /// The players followed now.
    func followedPlayers() -> [PlayerSummary]
}

/// One followed player, for `Status`.
public struct PlayerSummary: Sendable, Hashable {
    public var busName: String
    public var uniqueName: String
    public var appID: String
    public var playbackStatus: String?

    public init(busName: String, uniqueName: String, appID: String, playbackStatus: String?) {
        self.busName = busName
        self.uniqueName = uniqueName
        self.appID = appID
        self.playbackStatus = playbackStatus
    }
}

/// Declares `/org/mediabroker/MediaBroker1` — the contract's methods, properties and signals —
/// and answers it from the store and the daemon's state. Introspection is generated from this
/// declaration, so it cannot drift from what the object does.
public enum BrokerObject {
    public static func make(store: HistoryStore, state: BrokerState) -> ExportedObject {
        let interface = ExportedInterface(
            name: BrokerContract.interface,
            methods: [
                ExportedMethod("RecentMedia", inputs: [Argument("filter", .vardict)], outputs: [Argument("assets", "aa{sv}")]) { call in
                    recentMedia(call, store: store)
                },
                ExportedMethod("NowPlaying", outputs: [Argument("assets", "aa{sv}")]) { call in
                    call.reply([.array(element: .vardict, state.nowPlaying().map(\.fields))])
                },
                ExportedMethod("Status", outputs: [Argument("status", .vardict)]) { call in
                    status(call, store: store, state: state)
                },
            ],
            signals: [
                ExportedSignal("MediaAdded", arguments: [Argument("asset", .vardict)]),
            ])
        return ExportedObject(path: BrokerContract.objectPath, interfaces: [interface])
    }

    private static func recentMedia(_ call: MethodInvocation, store: HistoryStore) {
        let query: RecentQuery
        do throws(BusError) {
            guard let filter = try? call.arguments[0].vardict() else { throw .invalidArgs("the filter must be a{sv}") }
            query = try RecentQuery(filter: filter)
        } catch {
            call.fail(error)
            return
        }
        store.recent(query) { result in
            switch result {
            case .success(let assets):
                call.reply([.array(element: .vardict, assets.map(\.fields))])
            case .failure(.unknownCursor(let id)):
                call.fail(.invalidArgs("'before_id' \(id) names no asset in the history"))
            case .failure(let error):
                call.fail(.failed("the history could not be read: \(error)"))
            }
        }
    }

    private static func status(_ call: MethodInvocation, store: HistoryStore, state: BrokerState) {
        let players = state.followedPlayers().map { player -> DBusValue in
            var fields: [String: DBusValue] = [
                "bus_name": .string(player.busName), "unique_name": .string(player.uniqueName), "app_id": .string(player.appID),
            ]
            if let status = player.playbackStatus { fields["playback_status"] = .string(status) }
            return .vardict(fields)
        }
        store.count { result in
            var fields: [String: DBusValue] = [
                "version": .string(MediaBrokerVersion.current),
                "players": .array(element: .vardict, players),
            ]
            if case .success(let count) = result { fields["assets"] = .uint64(UInt64(max(0, count))) }
            call.reply([.vardict(fields)])
        }
    }
}
