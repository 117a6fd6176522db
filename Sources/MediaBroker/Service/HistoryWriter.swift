import AssetContract
import SwiftDBus
import BrokerCore

/// Writes what the broker records — players' listens and apps' donations — and announces each
/// asset once it is on disk. A track change runs one way through it: the tracker hands over the
/// store work of one event (``together(_:)``, ``carryOut(_:)``), which goes to the store as one unit; the store's
/// answer comes back here (``RecordingFollowUp``), and a new asset goes to the ``Announcer``.
///
/// When the store fails for a reason that may pass (``StoreError/isTransient``: a full or
/// read-only disk), an asset is kept in memory and tried again with a growing delay.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread (calls, timers, completions handed back with `loop.execute`).
final class HistoryWriter: @unchecked Sendable {
    private let connection: BusConnection
    private let store: HistoryStore
    private let announcer: Announcer
    private let eraser: HistoryEraser
    private let log: Log
    /// Records on their way to the store, and those waiting for it to take them again.
    /// The recording steps, on this store's errors.
    typealias Recording = RecordingFollowUp<StoreError>

    private var recording = Recording()
    private var retryTimer: TimerToken?
    /// The person's correction rules, applied to each asset as it is recorded (issue 34, §3).
    private var rules: CorrectionRules

    init(connection: BusConnection, store: HistoryStore, announcer: Announcer, eraser: HistoryEraser,
         rules: CorrectionRules, log: Log) {
        self.connection = connection
        self.store = store
        self.announcer = announcer
        self.eraser = eraser
        self.rules = rules
        self.log = log
    }

    /// The rules from now on, once they are on disk.
    func use(_ rules: CorrectionRules) {
        self.rules = rules
    }

    /// Runs `body`, which carries out the store work one player event asked for (``carryOut(_:)``),
    /// as one unit: one transaction, which may wait out a commit window to share its `fsync` with
    /// the next events' (no one waits on it).
    func together(_ body: () -> Void) {
        store.together(.noOneWaits, body)
    }

    /// Carries out a player event's store work; inside ``together(_:)``, with the rest of that event's.
    func carryOut(_ work: ListenRecorder.StoreWork) {
        switch work {
        case .saveOpenListen(let key, let asset, let checkpoint):
            store.saveOpenListen(key: key, asset: asset, checkpoint: checkpoint) { [log] result in
                if case .failure(let error) = result { log.warning("could not checkpoint a listen: \(error)") }
            }
        case .removeOpenListen(let key), .removeTwin(let key):
            store.removeOpenListen(key: key) { _ in }
        case .record(let asset, let openKey):
            record(asset, openKey: openKey)
        case .keepArtwork(let artwork):
            store.keepArtwork(artwork) { [log] result in
                if case .failure(let error) = result { log.warning("could not keep a listen's art: \(error)") }
            }
        }
    }

    /// Stores a finished listen or a donation (removing the listen's open record in the same
    /// transaction when `openKey` is given) and announces it once it is on disk; a correction rule
    /// for its words corrects it first. A second delivery of the same listen is stored once and
    /// announced once. `completion` runs once the asset is stored, or could not be and will not be
    /// tried again.
    func record(_ asset: MediaAsset, openKey: String?, completion: (@Sendable (Result<InsertOutcome, StoreError>) -> Void)? = nil) {
        guard let bounded = asset.bounded else {
            log.warning("not recording a listen from an app whose id breaks the rule (\(AssetContract.appIDRule)) or that has no title")
            if let openKey { store.removeOpenListen(key: openKey) { _ in } }
            completion?(.failure(.sqlite(SQLiteError(code: .constraint, message: "the app id breaks the rule, or the title is empty"))))
            return
        }
        if let corrected = rules.corrected(bounded)?.bounded {
            attempt(Recording.Record(asset: corrected, told: bounded, openKey: openKey, completion: completion))
        } else {
            attempt(Recording.Record(asset: bounded, openKey: openKey, completion: completion))
        }
    }

    private func attempt(_ record: Recording.Record) {
        let answered: @Sendable (Result<InsertOutcome, StoreError>) -> Void = { [self] result in
            connection.loop.execute { [self] in
                recording.answered(result, for: record) { carryOut($0, for: record, result) }
            }
        }
        if let openKey = record.openKey {
            store.finishOpenListen(key: openKey, asset: record.asset, correctedFrom: record.told, completion: answered)
        } else {
            store.insert(record.asset, correctedFrom: record.told, completion: answered)
        }
    }

    private func carryOut(_ step: Recording.Step, for record: Recording.Record, _ result: Result<InsertOutcome, StoreError>) {
        switch step {
        case .announce(let stored):
            log.debug("recorded \"\(stored.title)\" from \(stored.appID)")
            announcer.added(stored)
            eraser.stored(started: stored.started)
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
        let (lost, line) = recording.stop()
        if let line { log.error(line) }
        for record in lost { record.completion?(.failure(.closed)) }
    }
}
