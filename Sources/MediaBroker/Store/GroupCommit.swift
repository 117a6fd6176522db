/// Runs one batch of store jobs — everything the store thread found queued at a wake-up — sharing
/// transactions between neighbouring writes (group commit).
///
/// Writes queued back to back go into one transaction: one `COMMIT`, so with `synchronous=FULL` one
/// `fsync` of the WAL for all of them instead of one each. Completions run only after the `COMMIT`
/// has returned, so nothing is acknowledged (a `Donate` reply, a `MediaAdded` signal) before it is
/// on disk — the same promise as one transaction per write. A write queued alone gets a transaction
/// of its own the same way, so every write is atomic however many statements it runs.
///
/// When `BEGIN` fails (another process holds the write lock past the busy timeout, a read-only
/// file), every write of the group is answered with that error unrun. The transaction is all or
/// nothing (`SQLiteDatabase.beginAllOrNothing`): when a write of the group fails — or `COMMIT`
/// does, or SQLite rolled the transaction back itself (`SQLITE_FULL`, `SQLITE_IOERR` and others)
/// — nothing of it is kept, and each write of the group runs again alone,
/// in its own transaction, as if there were no grouping: every completion then tells its own write's
/// fate. A failure so costs one commit per write of its group. Undoing a failing write alone would
/// take a savepoint around every write, and a savepoint copies every page a write touches to the
/// sub-journal first (docs/performance.md, track_change, says what that costs) — paid on every
/// write, for failures that almost never happen.
///
/// A job of kind `.alone` (a read, a purge) ends the group before it: the writes before it are
/// committed and their completions run first, so it sees them, as the submission order promises.
struct GroupCommit {
    let database: HistoryDatabase

    /// The most writes one transaction takes. A flood of track changes can queue thousands of
    /// jobs; bounding the transaction bounds how long the first of them waits for its completion
    /// and how far one commit grows the WAL. 1,024 (~512 track changes) is more than a 25 ms
    /// commit window gathers at the ~12,000 changes a second a flood reaches here, so a flood
    /// commits once per window: with 256 it committed ~2.5 times as often, writing 1,220 bytes of
    /// WAL per change against 720 (issue 7, `/proc/PID/io` over 10,000 changes).
    static let maximumGroup = 1024

    /// Returns whether any write was committed (or tried to be).
    func run(_ batch: [StoreThread.Job]) -> Bool {
        var wrote = false
        var start = batch.startIndex
        while start < batch.endIndex {
            guard batch[start].kind == .write else {
                batch[start].run(database).finish(nil)
                start += 1
                continue
            }
            var end = start + 1
            while end < batch.endIndex, batch[end].kind == .write,
                  end - start < Self.maximumGroup || batch[end].continuesUnit {
                end += 1
            }
            commit(batch[start..<end])
            wrote = true
            start = end
        }
        return wrote
    }

    /// Runs `group` in one transaction and then its completions; each write alone if that fails.
    private func commit(_ group: ArraySlice<StoreThread.Job>) {
        let connection = database.connection
        do throws(SQLiteError) {
            try connection.beginAllOrNothing()
        } catch {
            // Nothing ran, so nothing is lost by answering now; beginning again for each write
            // would only wait out the same lock (the busy timeout) once more per write, and running
            // a write without its transaction would give up its atomicity.
            let failure = StoreError(error, path: database.path)
            for job in group { job.fail(failure) }
            return
        }
        var finishes: [(StoreError?) -> Void] = []
        finishes.reserveCapacity(group.count)
        for job in group {
            let outcome = job.run(database)
            let spoiled = connection.allOrNothingFailure
            if outcome.failed || spoiled != nil {
                connection.rollBackAllOrNothing()
                guard group.count == 1 else { return runEachAlone(group) }
                // A write that failed answers its own error; one that swallowed a failure of its
                // transaction is told what undid its writes.
                return outcome.finish(outcome.failed ? nil : spoiled.map { StoreError($0, path: database.path) })
            }
            finishes.append(outcome.finish)
        }
        do throws(SQLiteError) {
            try connection.commitAllOrNothing()
        } catch {
            connection.rollBackAllOrNothing()
            guard group.count == 1 else { return runEachAlone(group) }
            return finishes.forEach { $0(StoreError(error, path: database.path)) }
        }
        for finish in finishes { finish(nil) }
    }

    private func runEachAlone(_ group: ArraySlice<StoreThread.Job>) {
        for index in group.indices { commit(group[index...index]) }
    }
}
