internal import Glibc

/// The history as the bus thread reads it: a read-only connection of its own, so that
/// `RecentMedia` is answered on the thread that received it. Going through the store thread cost
/// two thread wake-ups per query (there and back), more than the query itself; in WAL mode this
/// reader and the store's writer do not block each other.
///
/// A query here holds up everything else the bus thread does (player signals included), so each
/// is bounded: past its budget SQLite interrupts it, and the caller hands it to the store thread,
/// which has all the time it takes. Its page cache is small: a page of fifty assets touches a few
/// dozen pages of the file, most of them read once.
///
/// Not `Sendable`: it owns a `NOMUTEX` connection, used only on the thread that opened it.
final class HistoryReader {
    private let connection: SQLiteDatabase
    /// The monotonic instant (µs) past which the running query is interrupted. Read by the progress
    /// handler, which SQLite calls on the thread running the query — this reader's.
    private let deadline: UnsafeMutablePointer<Int64>

    /// Page cache (anonymous memory): enough for the upper levels of the indexes the queries walk.
    static let cacheSizeKiB = 128
    /// Virtual-machine steps between two looks at the clock (a few microseconds of work).
    static let progressSteps: Int32 = 1000

    /// Opens the history at `path` for reading; the store must have opened (and checked and
    /// migrated) it already.
    ///
    /// Never waits for a lock: a reader is only ever kept waiting while the WAL is being recovered,
    /// and then the store thread answers instead.
    init(path: String) throws(StoreError) {
        do {
            connection = try SQLiteDatabase(path: path, readOnly: true, create: false)
            try connection.setDefensive(true)
            try connection.execute("""
                PRAGMA query_only = ON;
                PRAGMA trusted_schema = OFF;
                PRAGMA cache_size = -\(Self.cacheSizeKiB);
                """)
        } catch {
            throw StoreError(error, path: path)
        }
        deadline = .allocate(capacity: 1)
        deadline.initialize(to: .max)
        connection.setProgressHandler(every: Self.progressSteps, context: UnsafeMutableRawPointer(deadline)) { context in
            guard let context else { return 0 }
            return MonotonicClock.microseconds > context.load(as: Int64.self) ? 1 : 0
        }
    }

    deinit {
        connection.setProgressHandler(every: 0, context: nil, nil)
        deadline.deallocate()
    }

    enum Answer {
        case assets([MediaAsset])
        /// `query.beforeID` names no asset.
        case unknownCursor
        /// The query was interrupted at its budget, or could not run here (a lock, an error): the
        /// store thread should answer it.
        case notHere(SQLiteError)
    }

    /// Runs `query`, interrupting it once it has taken `budget`.
    func recent(_ query: RecentQuery, budget: Microseconds) -> Answer {
        deadline.pointee = MonotonicClock.microseconds + budget
        defer { deadline.pointee = .max }
        do throws(SQLiteError) {
            guard let assets = try connection.recentAssets(query) else { return .unknownCursor }
            return .assets(assets)
        } catch {
            return .notHere(error)
        }
    }
}
