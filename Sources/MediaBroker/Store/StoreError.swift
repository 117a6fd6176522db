internal import Glibc
import BrokerCore

/// Why the history store could not do what was asked.
enum StoreError: StoreFailure, Sendable, Hashable {
    /// An SQLite failure not covered by a more specific case.
    case sqlite(SQLiteError)
    /// The file is not a database, is damaged, or fails `PRAGMA quick_check`. The daemon moves it
    /// aside with `HistoryStore.moveAside(path:)` and starts a fresh store.
    case corrupt(path: String, reason: String)
    /// The file was written by a newer MediaBroker; it is left untouched.
    case newerSchema(found: Int, supported: Int)
    /// `RecentQuery.beforeID` names no asset in the store.
    case unknownCursor(Int64)
    /// The store was closed; nothing more can be done with it.
    case closed
    /// The file or its folder cannot be written (`SQLITE_READONLY…`).
    case readOnly(SQLiteError)
    /// The disk (or a quota, or `ulimit -f`) is full (`SQLITE_FULL`).
    case diskFull(SQLiteError)
    /// The operating system reported an I/O error (`SQLITE_IOERR…`).
    case ioFailure(SQLiteError)
    /// A file-system call around the database failed (creating its folder, renaming it aside).
    case fileSystem(path: String, operation: String, errno: Int32)
    /// The store's thread could not be started (`pthread_create` failed with this code).
    case threadUnavailable(errno: Int32)

    /// Whether the same work may succeed later without anyone repairing the file: the daemon keeps
    /// the assets in memory and retries (issue 6) instead of dropping them.
    var isTransient: Bool {
        switch self {
        case .readOnly, .diskFull, .ioFailure: return true
        case .sqlite(let error): return error.code.primary == .busy || error.code.primary == .locked
        case .fileSystem(_, _, let code): return [ENOSPC, EDQUOT, EROFS, EIO].contains(code)
        case .corrupt, .newerSchema, .unknownCursor, .closed, .threadUnavailable: return false
        }
    }

    var description: String {
        switch self {
        case .sqlite(let error): return error.description
        case .corrupt(let path, let reason): return "the database \(path) is damaged: \(reason)"
        case .newerSchema(let found, let supported):
            return "the database has schema version \(found); this MediaBroker knows versions up to \(supported)"
        case .unknownCursor(let id): return "no asset has the id \(id)"
        case .closed: return "the history store is closed"
        case .readOnly(let error): return "the database cannot be written: \(error)"
        case .diskFull(let error): return "the disk is full: \(error)"
        case .ioFailure(let error): return "I/O error: \(error)"
        case .fileSystem(let path, let operation, let errno):
            return "\(operation) \(path) failed with errno \(errno)"
        case .threadUnavailable(let errno): return "cannot start the store thread (errno \(errno))"
        }
    }
}

extension StoreError {
    /// Sorts an SQLite failure on the database at `path` into the case the daemon acts on.
    init(_ error: SQLiteError, path: String) {
        switch error.code.primary {
        case .corrupt, .notADatabase: self = .corrupt(path: path, reason: error.message)
        case .readOnly: self = .readOnly(error)
        case .full: self = .diskFull(error)
        case .ioError: self = .ioFailure(error)
        default: self = .sqlite(error)
        }
    }
}
