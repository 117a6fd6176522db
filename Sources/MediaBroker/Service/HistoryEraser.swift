import Clocks
import SwiftDBus
import BrokerCore

/// Deletes from the history: what the person asks to forget (`Purge`) and what is older than the
/// retention keeps, running again when ``RetentionSchedule`` says (one timer, armed only while
/// something will expire). Each deletion is announced with `MediaRemoved`.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread (handlers, timers, completions handed back with `loop.execute`).
final class HistoryEraser: @unchecked Sendable, SettingsKeeper.Observer {
    private let connection: BusConnection
    private let store: HistoryStore
    private let settings: CurrentSettings
    private let announcer: Announcer
    private let log: Log
    private var schedule = RetentionSchedule()
    private var timer: TimerToken?

    init(connection: BusConnection, store: HistoryStore, settings: CurrentSettings, announcer: Announcer, log: Log) {
        self.connection = connection
        self.store = store
        self.settings = settings
        self.announcer = announcer
        self.log = log
    }

    // MARK: Purge

    func purge(_ call: MethodInvocation) {
        let scope: PurgeScope
        do throws(BusError) {
            guard let filter = try? call.arguments[0].vardict() else { throw .invalidArgs("the filter must be a{sv}") }
            scope = try PurgeScope(filter: filter)
        } catch {
            return call.fail(error)
        }
        // The reply goes through the bus thread as each batch's announcement does, so a caller
        // hears of every removal before its answer.
        let loop = connection.loop
        store.purge(scope, onBatch: announceRemovals) { [log] result in
            loop.execute {
                switch result {
                case .success(let count):
                    log.info("purged \(count) assets")
                    call.reply([.uint64(UInt64(max(0, count)))])
                case .failure(let error):
                    call.fail(.failed("the purge stopped: \(error)"))
                }
            }
        }
    }

    // MARK: Retention

    /// A new retention deletes what it no longer keeps at once, and sleeps anew.
    func settingsChanged(_ change: SettingsChange) {
        if change.rerunsRetention { enforceRetention() }
    }

    /// An asset that started at `started` was stored: retention runs when it expires, if no run
    /// is planned sooner.
    func stored(started: Microseconds) {
        if let due = schedule.stored(started: started, window: settings.value.retentionWindow, now: WallClock.now) {
            arm(at: due)
        }
    }

    /// Deletes what is older than the retention allows, then sleeps as ``RetentionSchedule`` says.
    func enforceRetention() {
        timer?.cancel()
        timer = nil
        schedule.running()
        guard let window = settings.value.retentionWindow else { return }
        let ranAt = WallClock.now, days = settings.value.retentionDays
        store.expire(olderThan: ranAt - window, onBatch: announceRemovals) { [self] result in
            if case .success(let count) = result, count > 0 { log.info("retention removed \(count) assets older than \(days) days") }
            store.oldestStarted { [self] oldest in
                connection.loop.execute { [self] in
                    guard case .success(let oldest) = oldest, let due = schedule.ran(at: ranAt, oldest: oldest, window: window) else { return }
                    arm(at: due)
                }
            }
        }
    }

    /// What a deletion's batches are handed to: each batch's ids, announced on the bus thread, where
    /// the subscribers are.
    private var announceRemovals: @Sendable ([Int64]) -> Void {
        { [announcer, loop = connection.loop] ids in loop.execute { announcer.removed(ids) } }
    }

    private func arm(at due: Microseconds) {
        timer?.cancel()
        timer = connection.schedule(after: .microseconds(max(0, due - WallClock.now))) { [self] in enforceRetention() }
    }

    /// The broker stops: no run is planned any more.
    func stop() {
        timer?.cancel()
        timer = nil
    }
}
