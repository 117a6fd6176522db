/// Answers queries of the history (``HistoryReads``) on a thread of its own, from a read-only
/// connection of its own: the bus thread only routes, and never waits on the disk. In WAL mode this
/// reader and the store's writer do not block each other, and a query never waits behind a commit.
///
/// The connection is opened on the reader's thread at the first query, once the store has opened
/// (checked and migrated) the file, and is used only there. Its page cache is small: a page of
/// fifty assets touches a few dozen pages of the file, most of them read once.
// @unchecked Sendable: `connection` and `openError` are touched only by jobs on `worker`, which
// runs them one at a time on its one thread.
final class HistoryReader: @unchecked Sendable {
    private let worker = WorkerThread()
    private let path: String
    private var connection: SQLiteDatabase?
    private var openError: StoreError?

    /// Page cache (anonymous memory): enough for the upper levels of the indexes the queries walk.
    static let cacheSizeKiB = 128
    /// How long a query waits for a lock: only WAL recovery by another connection takes one.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    init(path: String) {
        self.path = path
    }

    deinit { worker.shutdown() }

    /// Runs `body` on the reader's connection, on the reader's thread; `completion` is called there
    /// with its answer, or with the error that kept the reader from answering (the caller may then
    /// ask the store).
    func read<Answer>(_ body: @escaping @Sendable (HistoryReads) throws(SQLiteError) -> Answer,
                              completion: @escaping @Sendable (Result<Answer, StoreError>) -> Void) {
        let submitted = worker.submit { [self] in
            completion(Result { () throws(StoreError) in
                let connection = try openedConnection()
                do throws(SQLiteError) {
                    return try body(HistoryReads(connection: connection))
                } catch {
                    throw StoreError(error, path: path)
                }
            })
        }
        if !submitted { completion(.failure(.closed)) }
    }

    /// The connection, opened at the first call; an error that kept it from opening is kept too.
    private func openedConnection() throws(StoreError) -> SQLiteDatabase {
        if let connection { return connection }
        if let openError { throw openError }
        do {
            let opened = try SQLiteDatabase(path: path, readOnly: true, create: false)
            try opened.setDefensive(true)
            try opened.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
            try opened.execute("""
                PRAGMA query_only = ON;
                PRAGMA trusted_schema = OFF;
                PRAGMA cache_size = -\(Self.cacheSizeKiB);
                """)
            connection = opened
            return opened
        } catch {
            let failure = StoreError(error, path: path)
            openError = failure
            throw failure
        }
    }
}
