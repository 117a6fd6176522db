import BrokerCore

/// Deleting assets — purge and retention — in bounded batches.
extension HistoryDatabase {
    /// How many assets one purge batch deletes. Each batch is one transaction and one
    /// `MediaRemoved`-sized list of ids, so a purge of a million assets needs neither a million ids
    /// in memory nor a D-Bus signal larger than the bus allows.
    static let purgeBatchSize = 1000

    /// Deletes what `scope` selects, oldest first, `batchSize` at a time, calling `onBatch` with the
    /// ids of each batch once it is committed. Returns how many were deleted in all.
    ///
    /// Each batch is its own transaction: a failure (a full disk, say) leaves the batches before it
    /// done and reported, and the rest untouched; running the same purge again finishes it. Art
    /// files no asset names any more are deleted at the end. When
    /// anything was deleted, a truncating checkpoint follows so that the deleted rows, which
    /// `secure_delete` zeroed in the database pages, also leave the WAL.
    func purge(
        _ scope: PurgeScope, batchSize: Int = purgeBatchSize, onBatch: ([Int64]) -> Void
    ) throws(StoreError) -> Int {
        let (text, values) = Self.purgeSQL(scope)
        let size = Int64(max(batchSize, 1))
        var total = 0
        defer { if total > 0 { truncateWAL() } }
        while true {
            let ids = try sql { () throws(SQLiteError) in
                try connection.transaction { () throws(SQLiteError) in
                    try connection.cachedStatement(text).use { statement throws(SQLiteError) in
                        try statement.bind(values + [.integer(size)])
                        return try statement.rows { $0.int64(at: 0) }
                    }
                }
            }
            if !ids.isEmpty {
                total += ids.count
                onBatch(ids)
            }
            if ids.count < size {
                // Art that only the deleted assets named goes with them.
                if total > 0 { try removeUnreferencedArtwork() }
                return total
            }
        }
    }

    /// The statement deleting one batch of what `scope` selects (the batch size is the last
    /// parameter), oldest first, through the index that matches the scope.
    static func purgeSQL(_ scope: PurgeScope) -> (sql: String, values: [SQLiteValue]) {
        let (selection, values) = selection(scope)
        return ("DELETE FROM assets WHERE id IN (\(selection) LIMIT ?) RETURNING id", values)
    }

    private static func selection(_ scope: PurgeScope) -> (String, [SQLiteValue]) {
        switch scope {
        case .app(let appID):
            return ("SELECT id FROM assets WHERE app_id = ? ORDER BY started, id", [.text(appID)])
        case .site(let site):
            // A site holds no LIKE wildcard ('%', '_'): `AssetContract.site(normalizing:)` lets none through.
            return ("SELECT id FROM assets WHERE site = ? OR site LIKE ? ORDER BY started, id", [.text(site), .text("%." + site)])
        case .all:
            return ("SELECT id FROM assets ORDER BY started, id", [])
        case .range(let since, let until):
            var conditions: [String] = []
            var values: [SQLiteValue] = []
            if let since {
                conditions.append("started >= ?")
                values.append(.integer(since))
            }
            if let until {
                conditions.append("started < ?")
                values.append(.integer(until))
            }
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            return ("SELECT id FROM assets\(filter) ORDER BY started, id", values)
        }
    }

    /// Copies the WAL into the database and truncates it to zero bytes. Best effort: while another
    /// process reads the file the checkpoint cannot finish, and the next one will.
    ///
    /// The corresponding SQLite statement is `PRAGMA wal_checkpoint(TRUNCATE)`.
    func truncateWAL() {
        _ = try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
