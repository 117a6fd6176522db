/// The history database, used synchronously on the store thread: opening, checking and configuring
/// the file. The operations live in extensions, one file per feature.
///
/// Not `Sendable`: it owns a `NOMUTEX` connection. `HistoryStore` hands it to its store thread at
/// start and never touches it from anywhere else.
final class HistoryDatabase {
    let connection: SQLiteDatabase
    var path: String { connection.path }

    /// SQLite's page cache is anonymous memory, which the daemon keeps small (its targets are in
    /// docs/performance.md). The store's writes touch few pages, and `RecentMedia` reads through
    /// `HistoryReader`; what else reads (a purge, `count`, `Apps`) walks the file once and gains
    /// little from a larger cache. Negative means KiB.
    ///
    /// Not `mmap_size`: mapped pages would not cost anonymous memory, but every page a purge or a
    /// count walks would then show in the daemon's resident size (300 MB for a million assets), and
    /// measured queries were no faster.
    static let cacheSizeKiB = 512
    /// A purge or a large batch can grow the WAL; past this it is truncated after the next checkpoint.
    static let walSizeLimitBytes = 4 << 20
    /// How long a statement waits for another process (a `sqlite3` shell, a backup) to let go.
    static let busyTimeoutMilliseconds: Int32 = 5000

    private init(connection: SQLiteDatabase) {
        self.connection = connection
    }

    /// Opens the file at `path` — creating it and its folders privately when missing — checks it,
    /// configures the connection and migrates the schema.
    ///
    /// Nothing is written before the schema version is known to be one this code understands and
    /// (with `checkIntegrity`) `PRAGMA quick_check` has passed: a newer or damaged file is left
    /// exactly as it was found. Reading the version is the first read, so SQLite refuses a file
    /// that is not a database, or is shorter than its header says, here even without the check.
    /// `quick_check` reads the whole file (120–250 ms for a million assets, up to a second on a
    /// slow disk). `checkIntegrity: false` skips it; the daemon does so only when the files are
    /// exactly as its last clean stop left them, where the check cannot find anything (see
    /// `CleanStopRecord`). A page damaged later fails the statement that reads it with
    /// `StoreError.corrupt`, never a crash.
    static func open(path: String, checkIntegrity: Bool = true) throws(StoreError) -> HistoryDatabase {
        try StoreFiles.prepare(path: path)
        let connection: SQLiteDatabase
        do {
            connection = try SQLiteDatabase(path: path)
        } catch {
            throw StoreError(error, path: path)
        }
        let database = HistoryDatabase(connection: connection)
        try database.sql { () throws(SQLiteError) in
            try connection.setCheckpointOnClose(false)
            try connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        }
        try database.checkVersion()
        if checkIntegrity { try database.checkIntegrity() }
        try database.sql { () throws(SQLiteError) in
            try connection.setCheckpointOnClose(true)
            try database.configure(persistent: true)
            try Schema.migrate(connection)
        }
        return database
    }

    /// A private database in memory, gone when closed: for tests and for running without a disk.
    static func inMemory() throws(StoreError) -> HistoryDatabase {
        let path = ":memory:"
        do {
            let database = HistoryDatabase(connection: try SQLiteDatabase(path: path))
            try database.configure(persistent: false)
            try Schema.migrate(database.connection)
            return database
        } catch {
            throw StoreError(error, path: path)
        }
    }

    private func checkVersion() throws(StoreError) {
        let found = try sql { () throws(SQLiteError) in try Schema.version(of: connection) }
        if found > Schema.currentVersion {
            throw .newerSchema(found: found, supported: Schema.currentVersion)
        }
    }

    /// The corresponding SQLite statement is `PRAGMA quick_check`, which answers `ok` or lists problems.
    private func checkIntegrity() throws(StoreError) {
        let verdict = try sql { () throws(SQLiteError) in try connection.scalarText("PRAGMA quick_check(1)") }
        guard verdict == "ok" else {
            throw .corrupt(path: path, reason: "quick_check: \(verdict ?? "no answer")")
        }
    }

    /// Sets the connection up for history that must not be lost or leak:
    /// - `journal_mode=WAL`: readers never block the writer, and a commit is one append.
    /// - `synchronous=FULL`: in WAL mode `NORMAL` syncs only at checkpoints, so a commit survives
    ///   `kill -9` but may vanish on power loss. An insert the broker has acknowledged (a `Donate`
    ///   reply, a `MediaAdded` signal) must survive both, so every commit waits for its `fsync`.
    ///   Writes queued together share one commit (`GroupCommit`), and so one `fsync`.
    /// - `secure_delete=ON`: purged listens are overwritten with zeros, not just unlinked from the
    ///   b-tree; together with a truncating checkpoint after each purge they are gone from the files.
    /// - `foreign_keys=ON`, `trusted_schema=OFF` and defensive mode: correctness and hardening against
    ///   a file that was tampered with.
    private func configure(persistent: Bool) throws(SQLiteError) {
        if persistent {
            let mode = try connection.scalarText("PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw SQLiteError(code: .error, message: "journal_mode WAL refused (got \(mode ?? "nothing"))")
            }
            try connection.execute("PRAGMA journal_size_limit = \(Self.walSizeLimitBytes)")
        }
        try connection.setDefensive(true)
        try connection.execute("""
            PRAGMA synchronous = FULL;
            PRAGMA foreign_keys = ON;
            PRAGMA secure_delete = ON;
            PRAGMA trusted_schema = OFF;
            PRAGMA cache_size = -\(Self.cacheSizeKiB);
            """)
    }

    /// Runs SQLite work, turning its failures into the store's errors for this file.
    func sql<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        do throws(SQLiteError) {
            return try body()
        } catch {
            throw StoreError(error, path: path)
        }
    }
}

extension HistoryDatabase {
    /// Gives back what opening took: `PRAGMA quick_check` reads every page of the file through the
    /// page cache, which then stays full — a megabyte of the daemon's anonymous memory for a large
    /// history — although the store's own work touches few pages (reads for `RecentMedia` go through
    /// `HistoryReader`). The pages are freed, and the C heap trimmed so the memory leaves the process.
    ///
    /// The corresponding SQLite statement is `PRAGMA shrink_memory`; the C call is `malloc_trim`.
    func releaseOpeningMemory() {
        _ = try? connection.execute("PRAGMA shrink_memory")
        _ = StoreThread.mallocTrim?(0)
    }
}
