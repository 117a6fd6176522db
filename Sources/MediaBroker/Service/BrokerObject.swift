import SwiftDBus
import AssetContract
import BrokerCore

/// Declares `/org/mediabroker/MediaBroker1` — the contract's methods, properties and signals —
/// and hands each call to the part that answers it (``Parts``). Introspection is generated from
/// this declaration, so it cannot drift from what the object does; so is the interface file
/// (``interfaceDocument``), documented by ``BrokerInterfaceDocs``.
enum BrokerObject {
    /// The parts the handlers call, each built by the ``Broker``.
    struct Parts: Sendable {
        let settings: CurrentSettings
        let keeper: SettingsKeeper
        let gate: ReaderGate
        let questions: AccessNotifications
        let announcer: Announcer
        let queries: HistoryQueries
        let status: StatusQueries
        let donations: Donations
        let eraser: HistoryEraser
        let picks: PickRequests
        let editor: HistoryEditor
        let suggestions: JournalSuggestions
    }

    static func make(serving parts: Parts) -> ExportedObject {
        declare { parts }
    }

    /// `org.mediabroker.MediaBroker1.xml`: the interface as the broker serves it, with its
    /// documentation, for `/usr/share/dbus-1/interfaces/` and binding generators.
    static var interfaceDocument: String {
        ExportedInterface.introspectionDocument([declaration])
    }

    /// The served interface's declaration, with no broker behind it: only read, never exported.
    static var declaration: ExportedInterface {
        // Only the shape is read, so no handler of this declaration ever runs to ask for the parts.
        declare { preconditionFailure("the interface's declaration is only read, never served") }.interfaces[0]
    }

    /// The object, its handlers reaching the parts they call through `serving`: the declaration
    /// reads them only when a call comes, so ``declaration`` needs no broker.
    private static func declare(_ serving: @escaping @Sendable () -> Parts) -> ExportedObject {
        var parts: Parts { serving() }
        // The asset keys and their types, from the contract's table, for binding generators.
        let assetKeys = [Annotation(BrokerContract.assetKeysAnnotation, AssetContract.annotation)]
        let assets = Argument("assets", "aa{sv}", annotations: assetKeys)
        let interface = ExportedInterface(
            name: BrokerContract.interface,
            methods: [
                ExportedMethod("RecentMedia", inputs: [Argument("filter", .vardict)], outputs: [assets]) { call in
                    parts.queries.recentMedia(call)
                },
                ExportedMethod("Moments", inputs: [Argument("filter", .vardict)], outputs: [Argument("moments", "aa{sv}")]) { call in
                    parts.queries.moments(call)
                },
                ExportedMethod("MediaByID", inputs: [Argument("ids", "ax")], outputs: [assets]) { call in
                    parts.queries.mediaByID(call)
                },
                ExportedMethod("NowPlaying", outputs: [assets]) { call in
                    parts.status.nowPlaying(call)
                },
                ExportedMethod("Apps", outputs: [Argument("apps", "aa{sv}")]) { call in
                    parts.status.apps(call)
                },
                ExportedMethod("SetAppOptedOut", inputs: [Argument("app_id", .string), Argument("opted_out", .boolean)]) { call in
                    parts.keeper.setAppOptedOut(call)
                },
                ExportedMethod("SetSiteOptedOut", inputs: [Argument("site", .string), Argument("opted_out", .boolean)]) { call in
                    parts.keeper.setSiteOptedOut(call)
                },
                ExportedMethod("OptOut") { call in parts.keeper.playerOpt(call, out: true) },
                ExportedMethod("OptIn") { call in parts.keeper.playerOpt(call, out: false) },
                ExportedMethod("Purge", inputs: [Argument("filter", .vardict)], outputs: [Argument("removed", .uint64)]) { call in
                    parts.eraser.purge(call)
                },
                ExportedMethod("Donate", inputs: [Argument("media", .vardict)], outputs: [Argument("id", .int64)],
                               limits: BrokerContract.donationLimits) { call in
                    parts.donations.donate(call)
                },
                ExportedMethod("Status", outputs: [Argument("status", .vardict)]) { call in
                    parts.status.status(call)
                },
                ExportedMethod("Subscribe") { call in parts.announcer.subscribe(call, as: parts.gate.reader(of: call.sender)) },
                ExportedMethod("RequestAccess", inputs: [Argument("options", .vardict)], outputs: [Argument("answer", .string)]) { call in
                    parts.questions.requestAccess(call, from: parts.gate.reader(of: call.sender))
                },
                ExportedMethod("Readers", outputs: [Argument("readers", "aa{sv}")]) { call in parts.gate.readers(call) },
                ExportedMethod("SetReaderAccess", inputs: [Argument("app_id", .string), Argument("access", .string)]) { call in
                    parts.gate.setReaderAccess(call)
                },
                ExportedMethod("EditMedia", inputs: [Argument("id", .int64), Argument("changes", .vardict)],
                               outputs: [Argument("asset", .vardict, annotations: assetKeys)]) { call in parts.editor.editMedia(call) },
                ExportedMethod("UndoEdit", inputs: [Argument("id", .int64)],
                               outputs: [Argument("asset", .vardict, annotations: assetKeys)]) { call in parts.editor.undoEdit(call) },
                ExportedMethod("Rules", outputs: [Argument("rules", "aa{sv}")]) { call in parts.editor.rules(call) },
                ExportedMethod("RemoveRule", inputs: [Argument("id", .int64)]) { call in parts.editor.removeRule(call) },
                ExportedMethod("JournalApps", outputs: [Argument("apps", "aa{sv}")]) { call in parts.suggestions.journalApps(call) },
                ExportedMethod("Pause", inputs: [Argument("options", .vardict)]) { call in parts.keeper.pause(call) },
                ExportedMethod("Resume") { call in parts.keeper.resume(call) },
                ExportedMethod("PickMedia", inputs: [Argument("parent_window", .string), Argument("options", .vardict)],
                               outputs: [Argument("handle", .objectPath)]) { call in parts.picks.pickMedia(call) },
            ],
            properties: [
                ExportedProperty("Version", signature: .uint32, get: { .uint32(BrokerContract.version) }),
                ExportedProperty("MediaEnabled", signature: .boolean, get: { .boolean(parts.settings.value.mediaEnabled) },
                                 setLater: { value, done in parts.keeper.setMediaEnabled(value, done: done) }),
                // Which apps are opted out is the history's too: a change names the property and
                // carries no value, since the signal reaches every process on the bus.
                ExportedProperty("OptedOutApps", signature: "as", changeSignal: .invalidates,
                                 get: { .strings(parts.settings.value.optedOutApps) }),
                ExportedProperty("RetentionDays", signature: .uint32, get: { .uint32(parts.settings.value.retentionDays) },
                                 setLater: { value, done in parts.keeper.setRetentionDays(value, done: done) }),
                ExportedProperty("PausedUntil", signature: .int64, get: { .int64(parts.settings.value.pausedUntil ?? 0) }),
                ExportedProperty("NewApps", signature: .string, get: { .string(parts.settings.value.newApps.rawValue) },
                                 setLater: { value, done in parts.keeper.setNewApps(value, done: done) }),
                ExportedProperty("AllowedApps", signature: "as", changeSignal: .invalidates,
                                 get: { .strings(parts.settings.value.allowedApps.sorted()) }),
                ExportedProperty("OptedOutSites", signature: "as", changeSignal: .invalidates,
                                 get: { .strings(parts.settings.value.optedOutSites.sorted()) }),
                ExportedProperty("SuggestAt", signature: .string, get: { .string(parts.suggestions.suggestAt) },
                                 setLater: { value, done in parts.suggestions.setSuggestAt(value, done: done) }),
                ExportedProperty("JournalApp", signature: .string, get: { .string(parts.suggestions.journalApp) },
                                 setLater: { value, done in parts.suggestions.setJournalApp(value, done: done) }),
            ],
            signals: [
                ExportedSignal("MediaAdded", arguments: [Argument("asset", .vardict, annotations: assetKeys)]),
                ExportedSignal("MediaRemoved", arguments: [Argument("ids", "ax")]),
                ExportedSignal("MediaChanged", arguments: [Argument("asset", .vardict, annotations: assetKeys)]),
            ])
        return ExportedObject(path: BrokerContract.objectPath, interfaces: [BrokerInterfaceDocs.documented(interface)]) { call, done in
            parts.gate.admit(call, done: done)
        }
    }
}
