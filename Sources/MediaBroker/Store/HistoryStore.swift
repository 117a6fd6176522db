/// Whether anyone waits on a write's outcome, which decides how soon it must be committed.
enum CommitUrgency: Sendable {
    /// A caller waits (a `Donate` reply, a setting): committed as soon as the store thread gets to it.
    case someoneWaits
    /// No caller waits (a player's listens, announced with `MediaAdded` once stored): may wait out
    /// the rest of a commit window to share a commit (``HistoryStore/together(_:_:)``).
    case noOneWaits
}

/// The listening history: MediaAssets in SQLite, owned by one dedicated thread.
///
/// Every operation queues its work and returns at once; its completion runs later **on the store
/// thread** (so it must not block; hand the result to your own loop). Jobs run one at a time in
/// the order they were submitted, so an insert followed by a query sees the insert.
///
/// Once the store is closed, every call fails with `StoreError.closed`, and the completion runs at
/// once, on the calling thread.
final class HistoryStore: Sendable {
    private let thread: StoreThread
    /// The database file, or `nil` for an in-memory store.
    let path: String?

    /// Opens (creating when missing) the history database at `path`.
    ///
    /// Missing folders are created with mode 0700 and the file with 0600. The file is checked before
    /// anything is written to it: a newer schema throws `.newerSchema`, a damaged file `.corrupt`
    /// (see `moveAside(path:)`), and in both cases the file is left as it was. `checkIntegrity` runs
    /// `PRAGMA quick_check`, which reads the whole file; it blocks the calling thread, like the rest
    /// of opening.
    ///
    /// `commitWindow`: how long after a commit writes queued with `.noOneWaits` wait for company
    /// before the next one (see ``together(_:_:)``), kept within 0…``maximumCommitWindow``.
    init(path: String, checkIntegrity: Bool = true, commitWindow: Duration = HistoryStore.commitWindow) throws(StoreError) {
        let database = try HistoryDatabase.open(path: path, checkIntegrity: checkIntegrity)
        database.releaseOpeningMemory()
        self.thread = try StoreThread(database: database, commitWindow: Self.bounded(commitWindow))
        self.path = path
    }

    private init(inMemory database: HistoryDatabase, commitWindow: Duration) throws(StoreError) {
        self.thread = try StoreThread(database: database, commitWindow: Self.bounded(commitWindow))
        self.path = nil
    }

    /// A store in memory, empty at start and gone when closed: for tests, and a fallback when no
    /// file can be opened.
    static func inMemory(commitWindow: Duration = HistoryStore.commitWindow) throws(StoreError) -> HistoryStore {
        try HistoryStore(inMemory: try HistoryDatabase.inMemory(), commitWindow: commitWindow)
    }

    /// The commit window of a store opened without one: long enough for a flood of track changes
    /// to share each `fsync` among dozens of them (docs/performance.md has the measurements), short
    /// enough that a listen's `MediaAdded` comes at most that much later — and only in a burst;
    /// nothing anyone waits on is held back.
    static let commitWindow: Duration = .milliseconds(25)

    /// The longest commit window a store takes; a longer one is cut to it, a negative one is none.
    static let maximumCommitWindow: Duration = .seconds(60)

    private static func bounded(_ window: Duration) -> Duration {
        min(max(window, .zero), maximumCommitWindow)
    }

    /// Jobs queued and not yet taken by the store thread: how far the store is behind.
    var backlog: Int { thread.backlog }

    /// Whether the store thread is waiting out a commit window now (for tests).
    var isWaitingOutCommitWindow: Bool { thread.isInCommitWindow }

    /// Closes without waiting: queued jobs still run, then the database closes.
    deinit { thread.shutdown(wait: false) }

    /// Finishes the queued jobs, then closes the database. Blocks until it is closed, except when
    /// called from a completion (on the store thread), where the close follows that completion.
    /// Calling it again does nothing.
    func close() {
        thread.shutdown(wait: true)
    }

    /// Renames a damaged database and its `-wal`/`-shm` files to `<path>.corrupt-<UTC time>` and
    /// returns the new name, so a fresh store can take the old one (issue 6). Call it only while no
    /// store has the file open.
    static func moveAside(path: String) throws(StoreError) -> String {
        try StoreFiles.moveAside(path: path)
    }

    // MARK: Running work on the store thread

    /// Queues `work`; `completion` gets its result on the store thread.
    ///
    /// A `.write` job may share its transaction with the writes queued next to it (group commit,
    /// see `GroupCommit`); its completion runs once that transaction is committed. An `.alone` job
    /// runs outside any transaction, after the writes queued before it are committed.
    func perform<T: Sendable>(
        _ kind: StoreThread.Job.Kind,
        _ work: @escaping @Sendable (HistoryDatabase) throws(StoreError) -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        let accepted = thread.submit(StoreThread.Job(kind: kind, run: { database in
            let result = Result { () throws(StoreError) in try work(database) }
            let failed = if case .failure = result { true } else { false }
            return StoreThread.Outcome(failed: failed) { lost in completion(lost.map { .failure($0) } ?? result) }
        }, fail: { error in completion(.failure(error)) }))
        if !accepted { completion(.failure(.closed)) }
    }

    func perform<T: Sendable>(
        _ work: @escaping @Sendable (HistoryDatabase) throws(StoreError) -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        perform(.alone, work, completion: completion)
    }

    /// Runs `body` and queues the store work it asks for on this thread as one unit: the writes go
    /// into one transaction (one `fsync`) and wake the store thread once. For the few writes one
    /// event causes — a track change finishes one listen and opens the next.
    ///
    /// With `.noOneWaits` the unit may also wait out a commit window: after a commit, writes no one
    /// waits on gather for up to `commitWindow` and share the next one (a player flooding track
    /// changes pays one `fsync` per window, not one per change). Anything someone waits on — a
    /// write queued with `.someoneWaits` or outside a unit, a read — ends the window at once.
    ///
    /// `body` must not wait for that work: it is only queued once `body` returns.
    func together(_ urgency: CommitUrgency = .someoneWaits, _ body: () -> Void) {
        thread.together(urgency, body)
    }

    /// Runs a read on the store's thread: for a store in memory, or when the reader cannot answer.
    func read<Answer: Sendable>(_ body: @escaping @Sendable (HistoryReads) throws(SQLiteError) -> Answer,
                                completion: @escaping @Sendable (Result<Answer, StoreError>) -> Void) {
        perform({ database throws(StoreError) in
            try database.sql { () throws(SQLiteError) in try body(HistoryReads(connection: database.connection)) }
        }, completion: completion)
    }
}
