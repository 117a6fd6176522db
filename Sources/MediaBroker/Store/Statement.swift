internal import CSQLite

/// A value to bind to a statement parameter when the parameter list is built at run time.
enum SQLiteValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
}

/// A prepared statement, owned: finalized when the last reference goes.
///
/// Not `Sendable`: it belongs to the connection's one thread, like the connection itself.
/// Parameter indexes are 1-based, column indexes 0-based, as in SQLite.
final class Statement {
    private let handle: OpaquePointer
    let sql: String

    /// Compiles `sql` on `db`; `persistent` hints that the statement will be reused many times.
    ///
    /// The corresponding SQLite call is `sqlite3_prepare_v3`.
    init(db: OpaquePointer, sql: String, persistent: Bool) throws(SQLiteError) {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        try check(sqlite3_prepare_v3(db, sql, -1, flags, &statement, nil), db: db, sql: sql)
        guard let statement else {
            // Only whitespace or a comment: SQLite compiles it to nothing; running it would do nothing
            // either, so saying so is better than a statement that silently never steps.
            throw SQLiteError(code: .misuse, message: "no statement in SQL text", sql: sql)
        }
        self.handle = statement
        self.sql = sql
    }

    /// The corresponding SQLite call is `sqlite3_finalize`.
    deinit { sqlite3_finalize(handle) }

    private var db: OpaquePointer? { sqlite3_db_handle(handle) }

    /// `check` for this statement's calls, which looks up the connection and the SQL for the error
    /// only when there is one: binding and stepping are the hot path of every write and query.
    @inline(__always)
    @discardableResult
    private func checked(_ rc: Int32) throws(SQLiteError) -> Int32 {
        if rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE { return rc }
        return try check(rc, db: db, sql: sql)
    }

    // MARK: Binding

    /// The corresponding SQLite calls are `sqlite3_bind_int64` and `sqlite3_bind_null`.
    func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try checked(sqlite3_bind_int64(handle, index, value))
    }

    /// The corresponding SQLite calls are `sqlite3_bind_double` and `sqlite3_bind_null`.
    func bind(_ value: Double?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try checked(sqlite3_bind_double(handle, index, value))
    }

    /// Binds the string's UTF-8 bytes with their length, so an embedded NUL does not cut the text
    /// short. SQLite copies them (`SQLITE_TRANSIENT`), so nothing of Swift's string has to outlive
    /// the call; an empty string is bound as '' (a null pointer would bind NULL).
    ///
    /// The corresponding SQLite calls are `sqlite3_bind_text64` and `sqlite3_bind_null`.
    func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard var value else { return try bindNull(at: index) }
        guard !value.isEmpty else {
            try checked(sqlite3_bind_text64(handle, index, "", 0, Self.transient, UInt8(SQLITE_UTF8)))
            return
        }
        let rc = value.withUTF8 { bytes -> Int32 in
            bytes.withMemoryRebound(to: CChar.self) { text in
                sqlite3_bind_text64(handle, index, text.baseAddress, sqlite3_uint64(text.count), Self.transient, UInt8(SQLITE_UTF8))
            }
        }
        try checked(rc)
    }

    /// SQLite's `SQLITE_TRANSIENT`, a destructor value that tells it to copy what is bound; C
    /// defines it as `(sqlite3_destructor_type)-1`, which Swift cannot import.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// The corresponding SQLite call is `sqlite3_bind_null`.
    func bindNull(at index: Int32) throws(SQLiteError) {
        try checked(sqlite3_bind_null(handle, index))
    }

    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .integer(let v): try bind(v, at: index)
        case .real(let v): try bind(v, at: index)
        case .text(let v): try bind(v, at: index)
        case .null: try bindNull(at: index)
        }
    }

    /// Binds `values` to parameters 1, 2, 3…
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    // MARK: Running

    /// Runs the statement one step: `true` when a row is ready to read, `false` when it is done.
    ///
    /// The corresponding SQLite call is `sqlite3_step`. It may block on disk or on another process's
    /// lock (up to the connection's busy timeout).
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        try checked(sqlite3_step(handle)) == SQLITE_ROW
    }

    /// Readies the statement for another run and clears its bindings.
    ///
    /// Resetting also ends the read transaction a half-read `SELECT` holds, which would otherwise keep
    /// WAL checkpoints from completing. The result of `sqlite3_reset` repeats the last step's error,
    /// which was already thrown, so it is not checked here. The corresponding SQLite calls are
    /// `sqlite3_reset` and `sqlite3_clear_bindings`.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Runs `body` on a freshly reset statement and resets it again afterwards, whatever happens.
    @discardableResult
    func use<T>(_ body: (Statement) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        reset()
        defer { reset() }
        return try body(self)
    }

    /// Steps through every row, decoding each with `decode`.
    func rows<T>(
        reservingCapacity capacity: Int = 0, _ decode: (Statement) throws(SQLiteError) -> T
    ) throws(SQLiteError) -> [T] {
        var result: [T] = []
        result.reserveCapacity(capacity)
        while try step() { result.append(try decode(self)) }
        return result
    }

    // MARK: Reading columns

    /// Whether column `index` of the current row is NULL. The corresponding SQLite call is
    /// `sqlite3_column_type`.
    func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// The corresponding SQLite call is `sqlite3_column_int64` (NULL reads as 0).
    func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    func optionalInt64(at index: Int32) -> Int64? { isNull(at: index) ? nil : int64(at: index) }

    /// The corresponding SQLite call is `sqlite3_column_double`.
    func double(at index: Int32) -> Double? { isNull(at: index) ? nil : sqlite3_column_double(handle, index) }

    /// The column as text, `nil` when NULL. Bytes that are not valid UTF-8 (a file written by
    /// something else) are repaired with U+FFFD rather than trapped on.
    ///
    /// The corresponding SQLite calls are `sqlite3_column_text` and `sqlite3_column_bytes`.
    func text(at index: Int32) -> String? {
        textBytes(at: index).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The column's text as SQLite holds it, `nil` when NULL (never for ''): valid only until the
    /// next step, reset or read of the same column as another type. Not checked as UTF-8.
    ///
    /// The corresponding SQLite calls are `sqlite3_column_text` and `sqlite3_column_bytes`, in the
    /// order SQLite documents for them.
    func textBytes(at index: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, index)))
    }

    /// A NOT NULL text column; a NULL there means the file was altered behind SQLite's back.
    func requiredText(at index: Int32, column: String) throws(SQLiteError) -> String {
        guard let value = text(at: index) else { throw nullInNotNullColumn(column) }
        return value
    }

    /// The error for a NULL read from a NOT NULL column.
    func nullInNotNullColumn(_ column: String) -> SQLiteError {
        SQLiteError(code: .corrupt, message: "NULL in NOT NULL column \(column)", sql: sql)
    }
}
