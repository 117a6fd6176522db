public import SwiftDBus

/// The broker's decisions, behind its D-Bus object: the person's settings, recording assets and
/// announcing them, purge and retention, donations and opt-outs.
///
/// Lives on the connection's thread: every method here is called from a method handler, a
/// property accessor, a store completion handed back with `loop.execute`, or a timer.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
public final class BrokerController: @unchecked Sendable {
    let connection: BusConnection
    let store: HistoryStore
    let log: Log
    let rule: ListenRule
    let resolver: AppResolver
    private(set) var settings: PrivacySettings
    weak var tracker: PlayerTracker?
    private var retentionTimer: TimerToken?
    private var retentionDue: Microseconds?
    /// Retention runs at most this often.
    static let retentionInterval: Microseconds = 3_600_000_000

    public init(connection: BusConnection, store: HistoryStore, settings: PrivacySettings, rule: ListenRule,
                resolver: AppResolver, log: Log) {
        self.resolver = resolver
        self.connection = connection
        self.store = store
        self.settings = settings
        self.rule = rule
        self.log = log
    }

    static func now() -> Microseconds { WallClock.now }

    // MARK: Recording

    /// A record the store could not take for a reason that may pass (disk full, read-only,
    /// I/O error, locked): kept in memory and retried.
    private struct PendingRecord {
        var asset: MediaAsset
        var openKey: String?
        var completion: (@Sendable (Result<InsertOutcome, StoreError>) -> Void)?
    }

    /// The member name of the signal announcing a recorded asset, checked once.
    private static let mediaAdded: MemberName = "MediaAdded"

    /// Records waiting for the store to take them again (see ``RetryQueue``); a timer runs only
    /// while one waits.
    private var pending = RetryQueue<PendingRecord>()
    private var retryTimer: TimerToken?

    /// Stores a finished listen (removing its open record in the same transaction when `openKey`
    /// is given) and announces it with `MediaAdded` once it is on disk. A second delivery of the
    /// same listen is stored once and announced once.
    ///
    /// When the store fails for a reason that may pass (``StoreError/isTransient``: a full or
    /// read-only disk), the asset is kept in memory and retried with a growing delay, and
    /// `completion` runs only once it is stored — a `Donate` caller gets its id only for an asset
    /// on disk. Any other failure is logged and handed to `completion` at once.
    func record(_ asset: MediaAsset, openKey: String?, completion: (@Sendable (Result<InsertOutcome, StoreError>) -> Void)? = nil) {
        guard let bounded = asset.bounded else {
            log.warning("not recording a listen from an app whose id is empty or longer than \(BrokerContract.maximumAppIDLength) bytes")
            if let openKey { store.removeOpenListen(key: openKey) { _ in } }
            completion?(.failure(.sqlite(SQLiteError(code: .constraint, message: "the app id is empty or too long"))))
            return
        }
        attempt(PendingRecord(asset: bounded, openKey: openKey, completion: completion))
    }

    private func attempt(_ record: PendingRecord) {
        let finish: @Sendable (Result<InsertOutcome, StoreError>) -> Void = { [self] result in
            connection.loop.execute { [self] in
                switch result {
                case .success(let outcome):
                    if outcome.wasNew {
                        var stored = record.asset
                        stored.id = outcome.id
                        log.debug("recorded \"\(record.asset.title)\" from \(record.asset.appID)")
                        announce(SignalEmission(path: BrokerContract.objectPath, interface: BrokerContract.interface,
                                                member: Self.mediaAdded, body: AssetAnnouncement(asset: stored)))
                        scheduleRetention(forAssetStarted: record.asset.started)
                    }
                    if pending.stored() {
                        log.info("the history can be written again\(pending.waiting.isEmpty ? "" : "; \(pending.waiting.count) assets still waiting")")
                    }
                case .failure(let error) where error.isTransient:
                    keep(record, after: error)
                    return
                case .failure(let error):
                    log.error("could not record a listen from \(record.asset.appID): \(error)")
                }
                record.completion?(result)
            }
        }
        if let openKey = record.openKey {
            store.finishOpenListen(key: openKey, asset: record.asset, completion: finish)
        } else {
            store.insert(record.asset, completion: finish)
        }
    }

    /// Holds a record the store refused for now, and makes sure a retry is scheduled.
    private func keep(_ record: PendingRecord, after error: StoreError) {
        switch pending.refused(record) {
        case .dropped:
            log.error("could not record \"\(record.asset.title)\" from \(record.asset.appID): \(error); \(pending.waiting.count) assets already wait in memory, so this one is dropped")
            record.completion?(.failure(error))
        case .kept:
            break
        case .keptArmTimer(let delay):
            log.warning("cannot write the history (\(error)); \(pending.waiting.count) assets kept in memory, retrying in \(delay.components.seconds) s")
            retryTimer = connection.schedule(after: delay) { [self] in
                retryTimer = nil
                pending.takeForRetry().forEach(attempt)
            }
        }
    }

    /// What could not be written by the time the broker stops is lost from memory; a listen's
    /// checkpoint is still on disk and is finished by the next start. Call on the connection's thread.
    func stop() {
        retryTimer?.cancel()
        retryTimer = nil
        let lost = pending.takeAll()
        guard !lost.isEmpty else { return }
        log.error("stopping with \(lost.count) assets that could not be written (\(lost.filter { $0.openKey != nil }.count) of them listens whose checkpoints the next start finishes)")
        for record in lost { record.completion?(.failure(.closed)) }
    }

    // MARK: Settings

    /// Applies new settings at once (nothing is recorded from the moment they change), then
    /// makes them durable and answers `done` when they are on disk.
    func change(_ update: (inout PrivacySettings) -> Void, done: @escaping @Sendable (BusError?) -> Void) {
        let before = settings
        update(&settings)
        guard settings != before else { return done(nil) }
        tracker?.privacyChanged(settings)
        var changed: [MemberName] = []
        if settings.mediaEnabled != before.mediaEnabled { changed.append("MediaEnabled") }
        if settings.optOuts.keys.sorted() != before.optOuts.keys.sorted() { changed.append("OptedOutApps") }
        if settings.retentionDays != before.retentionDays { changed.append("RetentionDays") }
        connection.emitPropertiesChanged(path: BrokerContract.objectPath, interface: BrokerContract.interface, names: changed)
        if settings.retentionDays != before.retentionDays { enforceRetention() }
        log.info("settings changed: media \(settings.mediaEnabled ? "on" : "off"), retention \(settings.retentionDays) days, \(settings.optOuts.count) apps opted out")
        store.setSetting(PrivacySettings.storeKey, settings.encoded) { [log] result in
            if case .failure(let error) = result {
                log.error("could not save the settings: \(error)")
                done(.failed("the settings apply now but could not be saved: \(error)"))
            } else {
                done(nil)
            }
        }
    }

    func setMediaEnabled(_ value: DBusValue, done: @escaping @Sendable (BusError?) -> Void) {
        guard case .boolean(let enabled) = value else { return done(.invalidArgs("MediaEnabled is a boolean")) }
        change({ $0.mediaEnabled = enabled }, done: done)
    }

    func setRetentionDays(_ value: DBusValue, done: @escaping @Sendable (BusError?) -> Void) {
        guard let days = try? value.integer(as: UInt32.self), days <= PrivacySettings.maximumRetentionDays else {
            return done(.invalidArgs("RetentionDays must be 0…\(PrivacySettings.maximumRetentionDays)"))
        }
        change({ $0.retentionDays = days }, done: done)
    }

    // MARK: Opt-out

    func setAppOptedOut(_ call: MethodInvocation) {
        guard case .string(let appID) = call.arguments[0], case .boolean(let optedOut) = call.arguments[1] else { return }
        guard !appID.isEmpty, appID.utf8.count <= BrokerContract.maximumAppIDLength else {
            return call.fail(.invalidArgs("'app_id' must be a non-empty string of at most \(BrokerContract.maximumAppIDLength) bytes"))
        }
        // The person decides: opting in clears the opt-out whoever made it.
        change({ $0.optOuts[appID] = optedOut ? .user : nil }) { error in
            if let error { call.fail(error) } else { call.reply() }
        }
    }

    /// `OptOut`/`OptIn` from a player about itself: the app is the one the caller's MPRIS name
    /// resolves to, never a name the caller chooses.
    func playerOpt(_ call: MethodInvocation, out: Bool) {
        guard let sender = call.sender, let appID = tracker?.appID(ofPlayer: sender) else {
            return call.fail(BusError(.notAPlayer, "only a connection that owns an org.mpris.MediaPlayer2.* name can opt itself \(out ? "out" : "in")"))
        }
        if out {
            guard settings.optOuts[appID] == nil else { return call.reply() }
            change({ $0.optOuts[appID] = .app }) { error in if let error { call.fail(error) } else { call.reply() } }
        } else {
            switch settings.optOuts[appID] {
            case .user?:
                call.fail(BusError(.optedOutByUser, "\(appID) was opted out by the user; only the user can opt it back in"))
            case .app?:
                change({ $0.optOuts[appID] = nil }) { error in if let error { call.fail(error) } else { call.reply() } }
            case nil:
                call.reply()
            }
        }
    }

    // MARK: Queries

    func recentMedia(_ call: MethodInvocation) {
        var query: RecentQuery
        do throws(BusError) {
            guard let filter = try? call.arguments[0].vardict() else { throw .invalidArgs("the filter must be a{sv}") }
            query = try RecentQuery(filter: filter)
        } catch {
            return call.fail(error)
        }
        // With Media off journaling apps get nothing; opted-out apps are never returned.
        guard settings.mediaEnabled else { return call.reply([.array(element: .vardict, [])]) }
        query.excludingApps = Set(settings.optOuts.keys)
        if let app = query.appID, settings.optOuts[app] != nil { return call.reply([.array(element: .vardict, [])]) }
        guard let reader else { return recentFromStore(query, call) }
        reader.recent(query) { [self, query] result in
            switch result {
            case .success(let assets?): call.reply(AssetPage(assets: assets))
            case .success(nil): call.fail(Self.unknownCursor(query.beforeID ?? 0))
            case .failure(let error):
                log.debug("RecentMedia goes to the store thread: \(error)")
                recentFromStore(query, call)
            }
        }
    }

    /// Answers `RecentMedia` from the store thread: for a store in memory, or when the reader cannot.
    private func recentFromStore(_ query: RecentQuery, _ call: MethodInvocation) {
        store.recent(query) { result in
            switch result {
            case .success(let assets):
                call.reply(AssetPage(assets: assets))
            case .failure(.unknownCursor(let id)):
                call.fail(Self.unknownCursor(id))
            case .failure(let error):
                call.fail(.failed("the history could not be read: \(error)"))
            }
        }
    }

    private static func unknownCursor(_ id: Int64) -> BusError {
        .invalidArgs("'before_id' \(id) names no asset in the history")
    }

    /// The history's reader (see ``HistoryReader``); `nil` for a store in memory.
    private lazy var reader: HistoryReader? = store.path.map(HistoryReader.init(path:))

    func nowPlaying() -> [MediaAsset] {
        guard settings.mediaEnabled else { return [] }
        return (tracker?.nowPlaying() ?? []).filter { settings.allows($0.appID) }.compactMap(\.bounded)
    }

    func apps(_ call: MethodInvocation) {
        let settings = settings
        let live = tracker?.followedPlayers() ?? []
        let resolver = resolver
        // Runs on the store thread: icon and name lookups may touch the disk, never on the bus thread.
        store.appSummaries { result in
            guard case .success(let summaries) = result else {
                return call.fail(.failed("the history could not be read"))
            }
            var byID: [String: [String: DBusValue]] = [:]
            func entry(_ id: String) -> [String: DBusValue] {
                byID[id] ?? ["app_id": .string(id), "listens": .uint32(0), "opted_out": .boolean(false)]
            }
            for summary in summaries {
                var fields = entry(summary.appID)
                if let name = summary.appName { fields["app_name"] = .string(name) }
                if let icon = summary.appIcon { fields["app_icon"] = .string(icon) }
                fields["listens"] = .uint32(UInt32(clamping: summary.listens))
                fields["last_seen"] = .int64(summary.lastSeen)
                byID[summary.appID] = fields
            }
            for player in live where player.appID.utf8.count <= BrokerContract.maximumAppIDLength { byID[player.appID] = entry(player.appID) }
            for (app, source) in settings.optOuts {
                var fields = entry(app)
                fields["opted_out"] = .boolean(true)
                fields["opted_out_by"] = .string(source.rawValue)
                byID[app] = fields
            }
            // The app's current name and icon where its desktop file tells; else what was stored.
            for (id, var fields) in byID {
                let identity = resolver.identity(forAppID: id)
                if let name = identity.appName { fields["app_name"] = .string(name) }
                if let icon = identity.appIcon { fields["app_icon"] = .string(icon) }
                byID[id] = fields
            }
            call.reply([.array(element: .vardict, byID.keys.sorted().compactMap { byID[$0].map(DBusValue.vardict) })])
        }
    }

    // MARK: Donations

    func donate(_ call: MethodInvocation) {
        let asset: MediaAsset
        do throws(BusError) {
            guard let fields = try? call.arguments[0].vardict() else { throw .invalidArgs("the media must be a{sv}") }
            let now = Self.now()
            asset = try MediaAsset(donation: fields, now: now)
            if fields["listened"] != nil, !rule.qualifies(listened: asset.listened, length: asset.length) {
                throw .invalidArgs("'listened' is too short to count as a listen")
            }
            // Stored, it would be announced and then deleted by the next retention pass.
            if settings.hasExpired(started: asset.started, now: now) {
                throw .invalidArgs("'started' is more than \(settings.retentionDays) days ago, older than the history is kept (RetentionDays)")
            }
        } catch {
            return call.fail(error)
        }
        guard settings.mediaEnabled else { return call.fail(BusError(.mediaDisabled, "media recording is switched off")) }
        guard settings.allows(asset.appID) else {
            return call.fail(BusError(.appOptedOut, "\(asset.appID) is opted out; nothing of it is recorded"))
        }
        record(asset, openKey: nil) { result in
            switch result {
            case .success(let outcome): call.reply([.int64(outcome.id)])
            case .failure(let error): call.fail(.failed("the donation could not be stored: \(error)"))
            }
        }
    }

    // MARK: Purge and retention

    func purge(_ call: MethodInvocation) {
        let scope: PurgeScope
        do throws(BusError) {
            guard let filter = try? call.arguments[0].vardict() else { throw .invalidArgs("the filter must be a{sv}") }
            scope = try PurgeScope(filter: filter)
        } catch {
            return call.fail(error)
        }
        store.purge(scope, onBatch: { [self] ids in announceRemoved(ids) }) { [log] result in
            switch result {
            case .success(let count):
                log.info("purged \(count) assets")
                call.reply([.uint64(UInt64(max(0, count)))])
            case .failure(let error):
                call.fail(.failed("the purge stopped: \(error)"))
            }
        }
    }

    private func announceRemoved(_ ids: [Int64]) {
        guard !ids.isEmpty else { return }
        announce(SignalEmission(path: BrokerContract.objectPath, interface: BrokerContract.interface,
                                member: "MediaRemoved", arguments: [.array(element: .int64, ids.map(DBusValue.int64))]))
    }

    /// Sends a signal; one that could not be sent is logged, since no caller waits on it.
    private func announce(_ signal: SignalEmission) {
        do { try connection.emit(signal) } catch { log.warning("could not send \(signal.member): \(error)") }
    }

    /// Deletes what is older than the retention allows, then sleeps until the oldest remaining
    /// asset expires — but at least an hour. With nothing to expire no timer runs.
    func enforceRetention() {
        retentionTimer?.cancel()
        retentionTimer = nil
        retentionDue = nil
        guard let window = settings.retentionWindow else { return }
        let ranAt = Self.now()
        store.expire(olderThan: ranAt - window, onBatch: { [self] ids in announceRemoved(ids) }) { [self] result in
            if case .success(let count) = result, count > 0 { log.info("retention removed \(count) assets older than \(settings.retentionDays) days") }
            store.oldestStarted { [self] oldest in
                connection.loop.execute { [self] in
                    guard case .success(let oldest?) = oldest else { return }
                    arm(at: max(ranAt + Self.retentionInterval, oldest + window))
                }
            }
        }
    }

    private func scheduleRetention(forAssetStarted started: Microseconds) {
        guard let window = settings.retentionWindow, retentionDue == nil else { return }
        arm(at: max(Self.now() + Self.retentionInterval, started + window))
    }

    private func arm(at due: Microseconds) {
        retentionTimer?.cancel()
        retentionDue = due
        let delay = max(0, due - Self.now())
        retentionTimer = connection.schedule(after: .microseconds(delay)) { [self] in enforceRetention() }
    }
}

extension PurgeScope {
    /// Reads `Purge`'s filter: `app_id` s, `since`/`until` x (either or both), or `all` b true.
    /// Exactly one kind of scope; an empty filter is InvalidArgs.
    init(filter: [String: DBusValue]) throws(BusError) {
        if let unknown = filter.keys.sorted().first(where: { !["app_id", "since", "until", "all"].contains($0) }) {
            throw .invalidArgs("unknown filter key '\(unknown.prefix(64))' (known: app_id, since, until, all)")
        }
        let hasRange = filter["since"] != nil || filter["until"] != nil
        let kinds = [filter["app_id"] != nil, hasRange, filter["all"] != nil].filter { $0 }.count
        guard kinds == 1 else { throw .invalidArgs("give exactly one of 'app_id', a 'since'/'until' range, or 'all'") }
        if let value = filter["app_id"] {
            guard let app = try? value.string(), !app.isEmpty else { throw .invalidArgs("'app_id' must be a non-empty string") }
            self = .app(app)
        } else if let value = filter["all"] {
            guard case .boolean(true) = value.unwrapped else { throw .invalidArgs("'all' must be the boolean true") }
            self = .all
        } else {
            let since = try filter["since"].map { value throws(BusError) in try RecentQuery.instant(value, "since") }
            let until = try filter["until"].map { value throws(BusError) in try RecentQuery.instant(value, "until") }
            if let since, let until, since > until { throw .invalidArgs("'since' must not be after 'until'") }
            self = .range(since: since, until: until)
        }
    }
}

extension ErrorName {
    /// `OptOut`/`OptIn` from a connection that owns no `org.mpris.MediaPlayer2.*` name.
    public static let notAPlayer: ErrorName = "org.mediabroker.MediaBroker1.Error.NotAPlayer"
    /// `OptIn` against the user's own opt-out.
    public static let optedOutByUser: ErrorName = "org.mediabroker.MediaBroker1.Error.OptedOutByUser"
    /// `Donate` from an app that is opted out.
    public static let appOptedOut: ErrorName = "org.mediabroker.MediaBroker1.Error.AppOptedOut"
}
