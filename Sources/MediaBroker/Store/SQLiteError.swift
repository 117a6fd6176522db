internal import CSQLite

/// A failed SQLite call: the extended result code, SQLite's message and the SQL that was running.
struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An SQLite result code, extended codes included (`SQLITE_IOERR_WRITE`, `SQLITE_READONLY_DBMOVED`…).
    ///
    /// A struct rather than a closed enum: a newer libsqlite3 may report codes this file has never
    /// heard of, and those must be carried, not trapped on.
    struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        var rawValue: Int32
        init(rawValue: Int32) { self.rawValue = rawValue }

        /// The primary code an extended code refines: its low byte, as SQLite defines it.
        var primary: Code { Code(rawValue: rawValue & 0xFF) }

        static let error = Code(rawValue: SQLITE_ERROR)
        static let busy = Code(rawValue: SQLITE_BUSY)
        static let locked = Code(rawValue: SQLITE_LOCKED)
        static let readOnly = Code(rawValue: SQLITE_READONLY)
        static let ioError = Code(rawValue: SQLITE_IOERR)
        static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        static let full = Code(rawValue: SQLITE_FULL)
        static let cantOpen = Code(rawValue: SQLITE_CANTOPEN)
        static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        static let misuse = Code(rawValue: SQLITE_MISUSE)
        static let notADatabase = Code(rawValue: SQLITE_NOTADB)

        /// SQLite's English name for the code. The corresponding SQLite call is `sqlite3_errstr`.
        var description: String { String(cString: sqlite3_errstr(rawValue)) + " (\(rawValue))" }
    }

    var code: Code
    var message: String
    /// The statement that failed, when there was one.
    var sql: String?

    init(code: Code, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    var description: String {
        let statement = sql.map { " in «\($0)»" } ?? ""
        return "SQLite error \(code): \(message)\(statement)"
    }
}

extension SQLiteError {
    /// The error the connection `db` last reported for `rc`.
    ///
    /// The corresponding SQLite calls are `sqlite3_errmsg` and `sqlite3_errstr`; the message is read
    /// at once because the next call on the connection overwrites it.
    init(_ rc: Int32, db: OpaquePointer?, sql: String?) {
        let message: String
        if let db, let text = sqlite3_errmsg(db) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(rc))
        }
        self.init(code: Code(rawValue: rc), message: message, sql: sql)
    }
}

/// Throws unless `rc` is one of the codes that mean success (`SQLITE_OK`, `SQLITE_ROW`, `SQLITE_DONE`),
/// so that each C call is one line and no result code is silently dropped.
@discardableResult
func check(_ rc: Int32, db: OpaquePointer?, sql: String? = nil) throws(SQLiteError) -> Int32 {
    switch rc {
    case SQLITE_OK, SQLITE_ROW, SQLITE_DONE: return rc
    default: throw SQLiteError(rc, db: db, sql: sql)
    }
}
