import BrokerCore

/// Deleting assets: purge on request, expiry for retention.
///
/// Deletion runs in batches of at most `purgeBatchSize` assets, each its own transaction. `onBatch`
/// gets the ids of each batch on the store thread once it is committed — one `MediaRemoved` signal
/// per batch keeps every signal small — and the completion gets the total. If a batch fails (a full
/// disk), the batches before it stay deleted and reported and the completion gets the error;
/// running the same purge again finishes it. Deleted rows are zeroed (`secure_delete`) and the WAL is
/// truncated afterwards, so the data is gone from the files, not just unlinked.
extension HistoryStore {
    /// The most ids one batch reports.
    static var purgeBatchSize: Int { HistoryDatabase.purgeBatchSize }

    func purge(
        _ scope: PurgeScope, onBatch: @escaping @Sendable ([Int64]) -> Void,
        completion: @escaping Completion<Int>
    ) {
        perform({ database throws(StoreError) in try database.purge(scope, onBatch: onBatch) }, completion: completion)
    }

    /// Deletes the assets that started before `cutoff` (retention), in batches like `purge`.
    func expire(
        olderThan cutoff: Microseconds, onBatch: @escaping @Sendable ([Int64]) -> Void,
        completion: @escaping Completion<Int>
    ) {
        purge(.range(since: nil, until: cutoff), onBatch: onBatch, completion: completion)
    }
}
