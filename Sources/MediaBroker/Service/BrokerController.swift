import AssetContract
public import SwiftDBus

/// Carries out the broker's decisions behind its D-Bus object — the person's settings, recording
/// assets and announcing them, purge and retention, donations and opt-outs — against the bus and
/// the store. The decisions are pure types tested on their own: ``SettingsChange``,
/// ``OptOutRequest``, ``RecordingQueue``, ``RetentionSchedule``, ``AppsList``, and the filters
/// and donation readers (``RecentQuery/allowed(by:)``, ``MediaAsset/init(donation:now:rule:settings:)``).
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
    /// Who may read, and who is told of live listens (issue 20).
    private(set) lazy var gate = ReaderGate(controller: self)
    /// `PickMedia`'s open requests (issue 21).
    var picks: PickRequests?
    private var retention = RetentionSchedule()
    private var retentionTimer: TimerToken?

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

    /// The member name of the signal announcing a recorded asset, checked once.
    private static let mediaAdded: MemberName = "MediaAdded"

    /// Records on their way to the store, and those waiting for it to take them again.
    private var recording = RecordingQueue()
    private var retryTimer: TimerToken?

    /// Stores a finished listen (removing its open record in the same transaction when `openKey`
    /// is given) and announces it with `MediaAdded` once it is on disk. A second delivery of the
    /// same listen is stored once and announced once.
    ///
    /// When the store fails for a reason that may pass (``StoreError/isTransient``: a full or
    /// read-only disk), the asset is kept in memory and retried with a growing delay, and
    /// `completion` runs only once it is stored (see ``RecordingQueue``).
    func record(_ asset: MediaAsset, openKey: String?, completion: (@Sendable (Result<InsertOutcome, StoreError>) -> Void)? = nil) {
        guard let bounded = asset.bounded else {
            log.warning("not recording a listen from an app whose id breaks the rule (\(AssetContract.appIDRule)) or that has no title")
            if let openKey { store.removeOpenListen(key: openKey) { _ in } }
            completion?(.failure(.sqlite(SQLiteError(code: .constraint, message: "the app id breaks the rule, or the title is empty"))))
            return
        }
        attempt(RecordingQueue.Record(asset: bounded, openKey: openKey, completion: completion))
    }

    private func attempt(_ record: RecordingQueue.Record) {
        let answered: @Sendable (Result<InsertOutcome, StoreError>) -> Void = { [self] result in
            connection.loop.execute { [self] in
                recording.answered(result, for: record) { carryOut($0, for: record, result) }
            }
        }
        if let openKey = record.openKey {
            store.finishOpenListen(key: openKey, asset: record.asset, completion: answered)
        } else {
            store.insert(record.asset, completion: answered)
        }
    }

    private func carryOut(_ step: RecordingQueue.Step, for record: RecordingQueue.Record, _ result: Result<InsertOutcome, StoreError>) {
        switch step {
        case .announce(let stored):
            log.debug("recorded \"\(stored.title)\" from \(stored.appID)")
            announce(SignalEmission(path: BrokerContract.objectPath, interface: BrokerContract.interface,
                                    member: Self.mediaAdded, body: AssetAnnouncement(asset: stored)))
            if let due = retention.stored(started: stored.started, window: settings.retentionWindow, now: Self.now()) {
                armRetention(at: due)
            }
        case .armRetry(let delay):
            retryTimer = connection.schedule(after: delay) { [self] in
                retryTimer = nil
                recording.takeForRetry().forEach(attempt)
            }
        case .log(let level, let line):
            log.write(level, line)
        case .complete:
            record.completion?(result)
        }
    }

    /// What could not be written by the time the broker stops is lost from memory. Call on the
    /// connection's thread.
    func stop() {
        retryTimer?.cancel()
        retryTimer = nil
        picks?.stop()
        gate.stop()
        let (lost, line) = recording.stop()
        if let line { log.error(line) }
        for record in lost { record.completion?(.failure(.closed)) }
    }

    // MARK: Settings

    /// Applies new settings at once (nothing is recorded from the moment they change), then
    /// makes them durable and answers `done` when they are on disk.
    func change(_ update: (inout PrivacySettings) -> Void, done: @escaping @Sendable (BusError?) -> Void) {
        var after = settings
        update(&after)
        let change = SettingsChange(before: settings, after: after)
        guard change.isChange else { return done(nil) }
        settings = after
        tracker?.privacyChanged(settings)
        connection.emitPropertiesChanged(path: BrokerContract.objectPath, interface: BrokerContract.interface,
                                         names: change.changedProperties)
        if change.rerunsRetention { enforceRetention() }
        log.write(change.onlyNotesReads ? .debug : .info, change.logLine)
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
        decide(OptOutRequest.byPerson(appID: appID, optedOut: optedOut), for: appID, call)
    }

    /// `OptOut`/`OptIn` from a player about itself: the app is the one the caller's MPRIS name
    /// resolves to, never a name the caller chooses.
    func playerOpt(_ call: MethodInvocation, out: Bool) {
        let appID = call.sender.flatMap { tracker?.appID(ofPlayer: $0) }
        decide(OptOutRequest.byPlayer(appID: appID, out: out, settings: settings), for: appID ?? "", call)
    }

    private func decide(_ decision: OptOutRequest.Decision, for appID: String, _ call: MethodInvocation) {
        switch decision {
        case .unchanged: call.reply()
        case .refused(let error): call.fail(error)
        case .set(let source): change({ $0.optOuts[appID] = source }) { error in if let error { call.fail(error) } else { call.reply() } }
        }
    }

    // MARK: Queries

    func nowPlaying() -> [MediaAsset] {
        settings.shown(tracker?.nowPlaying() ?? [])
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
            let entries = AppsList.entries(history: summaries, playing: live, optOuts: settings.optOuts,
                                           identity: { resolver.identity(forAppID: $0) })
            call.reply([.array(element: .vardict, entries)])
        }
    }

    // MARK: Donations

    func donate(_ call: MethodInvocation) {
        let asset: MediaAsset
        let sandboxed = gate.reader(of: call.sender).appID
        do throws(BusError) {
            guard var fields = try? call.arguments[0].vardict() else { throw .invalidArgs("the media must be a{sv}") }
            // A sandboxed app donates in its own name only, and within its rate.
            if let appID = try gate.donationAppID(try? fields["app_id"]?.string(), for: call) { fields["app_id"] = .string(appID) }
            // Its name and icon are its desktop file's, never its words: an app could otherwise
            // pass as another, or hand the picker a path to open.
            if sandboxed != nil { fields["app_name"] = nil; fields["app_icon"] = nil }
            asset = try MediaAsset(donation: fields, now: Self.now(), rule: rule, settings: settings)
        } catch {
            return call.fail(error)
        }
        // An app that may not read learns nothing of others' listening from the reply: the row id
        // would count the listens recorded since its last donation.
        let mayRead = gate.mayRead(call)
        guard let appID = sandboxed else { return storeDonation(asset, for: call, mayRead: mayRead) }
        let loop = connection.loop, donated = asset
        resolver.identity(forAppID: appID) { [self] app in
            var named = donated
            named.appName = app.appName
            named.appIcon = app.appIcon
            loop.execute { [self, named] in storeDonation(named, for: call, mayRead: mayRead) }
        }
    }

    private func storeDonation(_ asset: MediaAsset, for call: MethodInvocation, mayRead: Bool) {
        record(asset, openKey: nil) { result in
            switch result {
            case .success(let outcome): call.reply([.int64(mayRead ? outcome.id : 0)])
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

    /// Sends a signal to each subscriber that may read now (``ReaderGate/recipients()``); one that
    /// could not be sent is logged, since no caller waits on it.
    private func announce(_ signal: SignalEmission) {
        for recipient in gate.recipients() {
            var addressed = signal
            addressed.destination = try? BusName(recipient)
            do { try connection.emit(addressed) } catch { log.warning("could not send \(signal.member): \(error)") }
        }
    }

    /// Deletes what is older than the retention allows, then sleeps as ``RetentionSchedule`` says.
    func enforceRetention() {
        retentionTimer?.cancel()
        retentionTimer = nil
        retention.running()
        guard let window = settings.retentionWindow else { return }
        let ranAt = Self.now()
        store.expire(olderThan: ranAt - window, onBatch: { [self] ids in announceRemoved(ids) }) { [self] result in
            if case .success(let count) = result, count > 0 { log.info("retention removed \(count) assets older than \(settings.retentionDays) days") }
            store.oldestStarted { [self] oldest in
                connection.loop.execute { [self] in
                    guard case .success(let oldest) = oldest, let due = retention.ran(at: ranAt, oldest: oldest, window: window) else { return }
                    armRetention(at: due)
                }
            }
        }
    }

    private func armRetention(at due: Microseconds) {
        retentionTimer?.cancel()
        retentionTimer = connection.schedule(after: .microseconds(max(0, due - Self.now()))) { [self] in enforceRetention() }
    }
}
