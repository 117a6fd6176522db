/// Runs one batch of store jobs — everything the store thread found queued at a wake-up — sharing
/// transactions between neighbouring writes (group commit).
///
/// Writes queued back to back go into one transaction: one `COMMIT`, so with `synchronous=FULL` one
/// `fsync` of the WAL for all of them instead of one each. Each write runs inside its own savepoint,
/// so a write that fails is undone alone and the others still commit; its completion gets the
/// error. Completions run only after the `COMMIT` has returned, so nothing is acknowledged (a
/// `Donate` reply, a `MediaAdded` signal) before it is on disk — the same promise as one
/// transaction per write.
///
/// When the shared transaction itself fails — `BEGIN` or `COMMIT` fails, or a failing write took the
/// whole transaction with it (SQLite rolls back on `SQLITE_FULL`, `SQLITE_IOERR` and others) —
/// nothing of it is kept, and each write of the group runs again alone, in its own transaction, as
/// if there were no grouping: every completion then tells its own write's fate.
///
/// A job of kind `.alone` (a read, a purge) ends the group before it: the writes before it are
/// committed and their completions run first, so it sees them, as the submission order promises.
struct GroupCommit {
    let database: HistoryDatabase

    /// The most writes one transaction takes. A flood of track changes can queue thousands of
    /// jobs; bounding the transaction bounds how long the first of them waits for its completion
    /// and how far one commit grows the WAL, while 256 already spread the cost of an `fsync` thin.
    static let maximumGroup = 256

    func run(_ batch: [StoreThread.Job]) {
        var start = batch.startIndex
        while start < batch.endIndex {
            guard batch[start].kind == .write else {
                batch[start].run(database).finish()
                start += 1
                continue
            }
            var end = start + 1
            while end < batch.endIndex, batch[end].kind == .write,
                  end - start < Self.maximumGroup || batch[end].continuesUnit {
                end += 1
            }
            commit(batch[start..<end])
            start = end
        }
    }

    /// Runs `group` in one transaction and then its completions; alone, one by one, if that fails.
    private func commit(_ group: ArraySlice<StoreThread.Job>) {
        // A lone write needs no savepoint: it commits on its own, as it always did.
        guard group.count > 1, let connection = begin() else { return runAlone(group) }
        var finishes: [() -> Void] = []
        finishes.reserveCapacity(group.count)
        for job in group {
            guard (try? connection.savepoint()) != nil else { return abandon(group, connection) }
            let outcome = job.run(database)
            if outcome.failed {
                // Undo this write alone — unless SQLite already rolled back the whole transaction.
                guard connection.isInTransaction, (try? connection.rollBackToSavepoint()) != nil else {
                    return abandon(group, connection)
                }
            }
            guard (try? connection.releaseSavepoint()) != nil else { return abandon(group, connection) }
            finishes.append(outcome.finish)
        }
        guard (try? connection.commit()) != nil else { return abandon(group, connection) }
        for finish in finishes { finish() }
    }

    private func begin() -> SQLiteDatabase? {
        let connection = database.connection
        guard (try? connection.begin()) != nil else { return nil }
        return connection
    }

    /// Drops whatever the shared transaction holds and runs every write of the group alone.
    private func abandon(_ group: ArraySlice<StoreThread.Job>, _ connection: SQLiteDatabase) {
        connection.rollBackIfOpen()
        runAlone(group)
    }

    private func runAlone(_ group: ArraySlice<StoreThread.Job>) {
        for job in group { job.run(database).finish() }
    }
}
