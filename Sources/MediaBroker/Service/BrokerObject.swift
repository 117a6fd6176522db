public import SwiftDBus
import MediaBrokerVersion
import AssetContract

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
/// and hands each call to the ``BrokerController``. Introspection is generated from this
/// declaration, so it cannot drift from what the object does; so is the interface file
/// (``interfaceDocument``), documented by ``BrokerInterfaceDocs``.
public enum BrokerObject {
    public static func make(controller: BrokerController, picker: PickerSetup) -> ExportedObject {
        let queries = HistoryQueries(controller: controller)
        let picks = PickRequests(controller: controller, queries: queries, setup: picker)
        controller.picks = picks
        let parts = Parts(controller: controller, queries: queries, picks: picks)
        return declare { parts }
    }

    /// `org.mediabroker.MediaBroker1.xml`: the interface as the broker serves it, with its
    /// documentation, for `/usr/share/dbus-1/interfaces/` and binding generators.
    public static var interfaceDocument: String {
        ExportedInterface.introspectionDocument([declaration])
    }

    /// The served interface's declaration, with no broker behind it: only read, never exported.
    static var declaration: ExportedInterface {
        // Only the shape is read, so no handler of this declaration ever runs to ask for a controller.
        declare { preconditionFailure("the interface's declaration is only read, never served") }.interfaces[0]
    }

    /// What the handlers call.
    private struct Parts: Sendable {
        let controller: BrokerController
        let queries: HistoryQueries
        let picks: PickRequests
    }

    /// The object, its handlers reaching the parts they call through `serving`: the declaration
    /// reads them only when a call comes, so ``declaration`` needs no broker.
    private static func declare(_ serving: @escaping @Sendable () -> Parts) -> ExportedObject {
        var controller: BrokerController { serving().controller }
        var queries: HistoryQueries { serving().queries }
        var picks: PickRequests { serving().picks }
        // The asset keys and their types, from the contract's table, for binding generators.
        let assetKeys = [Annotation(BrokerContract.assetKeysAnnotation, AssetContract.annotation)]
        let assets = Argument("assets", "aa{sv}", annotations: assetKeys)
        let interface = ExportedInterface(
            name: BrokerContract.interface,
            methods: [
                ExportedMethod("RecentMedia", inputs: [Argument("filter", .vardict)], outputs: [assets]) { call in
                    queries.recentMedia(call)
                },
                ExportedMethod("Moments", inputs: [Argument("filter", .vardict)], outputs: [Argument("moments", "aa{sv}")]) { call in
                    queries.moments(call)
                },
                ExportedMethod("MediaByID", inputs: [Argument("ids", "ax")], outputs: [assets]) { call in
                    queries.mediaByID(call)
                },
                ExportedMethod("NowPlaying", outputs: [assets]) { call in
                    call.reply(AssetPage(assets: controller.nowPlaying()))
                },
                ExportedMethod("Apps", outputs: [Argument("apps", "aa{sv}")]) { call in
                    controller.apps(call)
                },
                ExportedMethod("SetAppOptedOut", inputs: [Argument("app_id", .string), Argument("opted_out", .boolean)]) { call in
                    controller.setAppOptedOut(call)
                },
                ExportedMethod("OptOut") { call in controller.playerOpt(call, out: true) },
                ExportedMethod("OptIn") { call in controller.playerOpt(call, out: false) },
                ExportedMethod("Purge", inputs: [Argument("filter", .vardict)], outputs: [Argument("removed", .uint64)]) { call in
                    controller.purge(call)
                },
                ExportedMethod("Donate", inputs: [Argument("media", .vardict)], outputs: [Argument("id", .int64)],
                               limits: BrokerContract.donationLimits) { call in
                    controller.donate(call)
                },
                ExportedMethod("Status", outputs: [Argument("status", .vardict)]) { call in
                    status(call, controller: controller)
                },
                ExportedMethod("Subscribe") { call in controller.gate.subscribe(call) },
                ExportedMethod("RequestAccess", inputs: [Argument("options", .vardict)], outputs: [Argument("answer", .string)]) { call in
                    controller.gate.questions.requestAccess(call)
                },
                ExportedMethod("Readers", outputs: [Argument("readers", "aa{sv}")]) { call in controller.gate.readers(call) },
                ExportedMethod("SetReaderAccess", inputs: [Argument("app_id", .string), Argument("access", .string)]) { call in
                    controller.gate.setReaderAccess(call)
                },
                ExportedMethod("PickMedia", inputs: [Argument("parent_window", .string), Argument("options", .vardict)],
                               outputs: [Argument("handle", .objectPath)]) { call in picks.pickMedia(call) },
            ],
            properties: [
                ExportedProperty("Version", signature: .uint32, get: { .uint32(BrokerContract.version) }),
                ExportedProperty("MediaEnabled", signature: .boolean, get: { .boolean(controller.settings.mediaEnabled) },
                                 setLater: { value, done in controller.setMediaEnabled(value, done: done) }),
                // Which apps are opted out is the history's too: a change names the property and
                // carries no value, since the signal reaches every process on the bus.
                ExportedProperty("OptedOutApps", signature: "as", changeSignal: .invalidates,
                                 get: { .strings(controller.settings.optedOutApps) }),
                ExportedProperty("RetentionDays", signature: .uint32, get: { .uint32(controller.settings.retentionDays) },
                                 setLater: { value, done in controller.setRetentionDays(value, done: done) }),
            ],
            signals: [
                ExportedSignal("MediaAdded", arguments: [Argument("asset", .vardict, annotations: assetKeys)]),
                ExportedSignal("MediaRemoved", arguments: [Argument("ids", "ax")]),
            ])
        return ExportedObject(path: BrokerContract.objectPath, interfaces: [BrokerInterfaceDocs.documented(interface)]) { call, done in
            controller.gate.admit(call, done: done)
        }
    }

    private static func status(_ call: MethodInvocation, controller: BrokerController) {
        guard let tracker = controller.tracker else { return reportStatus(call, controller: controller) }
        tracker.whenSettled { reportStatus(call, controller: controller) }
    }

    private static func reportStatus(_ call: MethodInvocation, controller: BrokerController) {
        // Which players play, and how much is kept, is the history too: only for those who may read it.
        guard controller.gate.mayRead(call) else { return call.reply([.vardict(["version": .string(MediaBrokerVersion.current)])]) }
        let players = (controller.tracker?.followedPlayers() ?? []).map { player -> DBusValue in
            var fields: [String: DBusValue] = [
                "bus_name": .string(player.busName), "unique_name": .string(player.uniqueName), "app_id": .string(player.appID),
            ]
            if let status = player.playbackStatus { fields["playback_status"] = .string(status) }
            return .vardict(fields)
        }
        controller.store.count { result in
            var fields: [String: DBusValue] = [
                "version": .string(MediaBrokerVersion.current),
                "players": .array(element: .vardict, players),
            ]
            if case .success(let count) = result { fields["assets"] = .uint64(UInt64(max(0, count))) }
            call.reply([.vardict(fields)])
        }
    }
}
