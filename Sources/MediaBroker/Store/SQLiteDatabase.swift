internal import CSQLite

/// One SQLite connection, owned: closed when the last reference goes.
///
/// Not `Sendable`: it is opened with `SQLITE_OPEN_NOMUTEX`, which drops SQLite's own per-connection
/// mutex, so exactly one thread may use it at a time. `HistoryStore` confines it to its store thread.
final class SQLiteDatabase {
    let handle: OpaquePointer
    /// The file name as given (`:memory:` for a private in-memory database).
    let path: String
    private var statementCache: [StatementText: Statement] = [:]

    /// Opens (and with `create`, creates) the database at `path`, with extended result codes on.
    ///
    /// The corresponding SQLite call is `sqlite3_open_v2` with `SQLITE_OPEN_NOMUTEX` and
    /// `SQLITE_OPEN_EXRESCODE`. Opening reads nothing yet: a file that is not a database is only
    /// noticed by the first statement that reads it.
    init(path: String, readOnly: Bool = false, create: Bool = true) throws(SQLiteError) {
        _ = Self.processConfiguration
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError(rc, db: db, sql: nil)
            // Even a failed open may allocate a handle, which must be released.
            sqlite3_close_v2(db)
            throw error
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
    }

    /// The corresponding SQLite call is `sqlite3_close_v2`, which defers the close until every
    /// statement of the connection has been finalized, so the order of deinits does not matter.
    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// SQLite's process-wide settings, applied once before its first connection opens.
    ///
    /// Memory statistics off (`SQLITE_CONFIG_MEMSTATUS`): with them on, every allocation and free
    /// inside SQLite takes a process-wide mutex to count it, for numbers nothing here reads (`sqlite3_memory_used`;
    /// `pageCacheBytes` is counted per connection without them). A Swift global's initializer runs
    /// once, whichever thread gets there first. Too late (SQLite already initialized, by another
    /// user of the library in this process) it is refused, and everything works as before.
    ///
    /// The corresponding SQLite call is `sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0)`.
    private static let processConfiguration: Void = {
        _ = csqlite_config_memstatus(0)
    }()

    /// The bytes SQLite has allocated in this process, as its memory statistics count them: 0 while
    /// they are off. The corresponding SQLite call is `sqlite3_memory_used`.
    static var countedMemory: Int64 { sqlite3_memory_used() }

    // MARK: Statements

    /// Compiles a statement for one use. The corresponding SQLite call is `sqlite3_prepare_v3`.
    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(db: handle, sql: sql, persistent: false)
    }

    /// The statement for `sql`, compiled on first use and kept (see the `StatementText` overload).
    func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        try cachedStatement(StatementText(sql))
    }

    /// The statement for `text`, compiled on first use and kept for the life of the connection, for
    /// the hot paths (insert, the common query shapes).
    ///
    /// The cache is bounded: statements built from run-time shapes (one per number of excluded apps)
    /// could otherwise grow it without limit; past the bound it is simply emptied.
    func cachedStatement(_ text: StatementText) throws(SQLiteError) -> Statement {
        if let statement = statementCache[text] { return statement }
        if statementCache.count >= Self.statementCacheLimit { statementCache.removeAll() }
        let statement = try Statement(db: handle, sql: text.sql, persistent: true)
        statementCache[text] = statement
        return statement
    }

    static let statementCacheLimit = 32

    /// Runs one or more statements that return no rows of interest (schema, pragmas).
    ///
    /// The corresponding SQLite call is `sqlite3_exec`.
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            throw SQLiteError(code: .init(rawValue: rc), message: text, sql: sql)
        }
    }

    /// The first column of the first row of `sql`, as text (`nil` when there is no row or it is NULL).
    func scalarText(_ sql: String) throws(SQLiteError) -> String? {
        try prepare(sql).use { statement throws(SQLiteError) in try statement.step() ? statement.text(at: 0) : nil }
    }

    /// The first column of the first row of `sql`, as an integer (`nil` when there is no row or it is NULL).
    func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
        try prepare(sql).use { statement throws(SQLiteError) in
            try statement.step() ? statement.optionalInt64(at: 0) : nil
        }
    }

    // MARK: Transactions

    /// Runs `body` atomically: committed when it returns, rolled back when it (or the commit) throws.
    ///
    /// Outside a transaction this is one: `BEGIN IMMEDIATE` takes the write lock at once, so it
    /// cannot fail half-way with `SQLITE_BUSY` because another process started writing after it
    /// read. Inside a transaction begun with `beginAllOrNothing` (the store's group commit), whose
    /// owner undoes all of it when any part fails, `body` simply runs, and a failure is recorded in
    /// `allOrNothingFailure` for that owner (even if the caller catches it). Inside any other open
    /// transaction it is a misuse: nothing would undo `body` alone, and nothing would commit it.
    func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        if allOrNothing, isInTransaction {
            do {
                return try body()
            } catch {
                allOrNothingFailure = error
                throw error
            }
        }
        guard !isInTransaction else {
            throw SQLiteError(code: .misuse, message: "a transaction inside a transaction its owner does not undo whole")
        }
        try begin()
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollBackIfOpen()
            throw error
        }
    }

    /// The corresponding SQLite statement is `BEGIN IMMEDIATE`.
    func begin() throws(SQLiteError) { try run("BEGIN IMMEDIATE") }

    /// Whether the open transaction was begun with `beginAllOrNothing`.
    private(set) var allOrNothing = false
    /// How a `transaction` nested in an all-or-nothing one failed since it began, if one did.
    private(set) var allOrNothingFailure: SQLiteError?

    /// Begins a transaction that its caller commits whole or rolls back whole: the caller promises
    /// to roll all of it back when any part of it fails (a thrown error, or `allOrNothingFailure`),
    /// so the `transaction` calls nested in it need no savepoints of their own. Savepoints are not
    /// free: every page first written under one is copied to the sub-journal. End it with `commitAllOrNothing` or
    /// `rollBackAllOrNothing`.
    ///
    /// The corresponding SQLite statement is `BEGIN IMMEDIATE`.
    func beginAllOrNothing() throws(SQLiteError) {
        try begin()
        allOrNothing = true
        allOrNothingFailure = nil
    }

    /// The corresponding SQLite statement is `COMMIT`.
    func commitAllOrNothing() throws(SQLiteError) {
        allOrNothing = false
        try commit()
    }

    /// Rolls back whatever is still open of the transaction (see `rollBackIfOpen`).
    func rollBackAllOrNothing() {
        allOrNothing = false
        rollBackIfOpen()
    }

    /// The corresponding SQLite statement is `COMMIT`; with `synchronous=FULL` it returns once the
    /// WAL is synced.
    func commit() throws(SQLiteError) { try run("COMMIT") }

    private func run(_ sql: String) throws(SQLiteError) {
        try cachedStatement(sql).use { statement throws(SQLiteError) in try statement.step() }
    }

    /// Whether a transaction is open. The corresponding SQLite call is `sqlite3_get_autocommit`.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rolls back after a failure. Some errors (`SQLITE_FULL`, `SQLITE_IOERR`) already rolled the
    /// transaction back inside SQLite, so it only runs while one is still open; a failing rollback
    /// has nothing better to report than the error that caused it.
    ///
    /// The corresponding SQLite calls are `sqlite3_get_autocommit` and `sqlite3_exec`.
    func rollBackIfOpen() {
        if isInTransaction {
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
        }
    }

    // MARK: Connection state

    /// Rows changed by the last INSERT, UPDATE or DELETE. The corresponding SQLite call is
    /// `sqlite3_changes64`.
    var changes: Int64 { sqlite3_changes64(handle) }

    /// Bytes the connection's page cache holds now. The corresponding SQLite call is
    /// `sqlite3_db_status(SQLITE_DBSTATUS_CACHE_USED)`.
    var pageCacheBytes: Int {
        var current: Int32 = 0, highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    /// The corresponding SQLite call is `sqlite3_last_insert_rowid`.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How long a statement waits for another process's lock before failing with `SQLITE_BUSY`.
    ///
    /// The corresponding SQLite call is `sqlite3_busy_timeout`.
    func setBusyTimeout(milliseconds: Int32) throws(SQLiteError) {
        try check(sqlite3_busy_timeout(handle, milliseconds), db: handle)
    }

    /// Whether closing the connection checkpoints the WAL into the main file. Off while a file is
    /// only being inspected, so a database this code refuses is left byte for byte as found.
    ///
    /// The corresponding SQLite call is `sqlite3_db_config(SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE)`.
    func setCheckpointOnClose(_ enabled: Bool) throws(SQLiteError) {
        try configure(SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enabled ? 0 : 1)
    }

    /// Defensive mode forbids the statements that can corrupt a file on purpose (writable_schema,
    /// direct shadow-table writes). The corresponding SQLite call is
    /// `sqlite3_db_config(SQLITE_DBCONFIG_DEFENSIVE)`.
    func setDefensive(_ enabled: Bool) throws(SQLiteError) {
        try configure(SQLITE_DBCONFIG_DEFENSIVE, enabled ? 1 : 0)
    }

    private func configure(_ option: Int32, _ value: Int32) throws(SQLiteError) {
        try check(csqlite_db_config_flag(handle, option, value), db: handle)
    }
}

/// A statement's SQL as the statement cache's key, hashed once when made. The statements of every
/// track change are kept as such keys (`HistoryDatabase.insertSQL`…), so the cache finds them
/// without hashing their text again (the `bench/run` track_change row).
struct StatementText: Hashable, Sendable {
    let sql: String
    private let textHash: Int

    init(_ sql: String) {
        self.sql = sql
        textHash = sql.hashValue
    }

    func hash(into hasher: inout Hasher) { hasher.combine(textHash) }

    static func == (a: StatementText, b: StatementText) -> Bool { a.textHash == b.textHash && a.sql == b.sql }
}
