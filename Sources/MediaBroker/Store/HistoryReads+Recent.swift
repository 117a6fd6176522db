import BrokerCore

/// Answering `RecentMedia`: newest first, as an index range scan whatever the filter.
extension HistoryReads {
    /// The assets `query` asks for; `nil` when `query.beforeID` names no asset.
    func recent(_ query: RecentQuery) throws(SQLiteError) -> [MediaAsset]? {
        let limit = min(max(query.limit, 0), RecentQuery.maximumLimit)
        if limit == 0 { return [] }
        if let appID = query.appID, query.excludingApps.contains(appID) { return [] }

        var cursor: (started: Microseconds, id: Int64)?
        if let beforeID = query.beforeID {
            guard let started = try startedOfAsset(beforeID) else { return nil }
            cursor = (started, beforeID)
        }
        let (text, values) = Self.recentSQL(query, cursor: cursor, limit: limit)
        return try connection.cachedStatement(text).use { statement throws(SQLiteError) in
            try statement.bind(values)
            var decoder = AssetColumns.Decoder(artworkFolder: artworkFolder)
            return try statement.rows(reservingCapacity: limit) { row throws(SQLiteError) in try decoder.readStored(row) }
        }
    }

    func startedOfAsset(_ id: Int64) throws(SQLiteError) -> Microseconds? {
        try connection.cachedStatement("SELECT started FROM assets WHERE id = ?1").use { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            return try statement.step() ? statement.int64(at: 0) : nil
        }
    }

    /// The SQL for one query shape and its parameters.
    ///
    /// Each filter that is absent is left out of the text rather than written as `(? IS NULL OR …)`,
    /// which would hide the bounds from the planner. So every shape is a range on `assets_by_started`
    /// or `assets_by_app`, walked in the index's own order (`started DESC, id DESC`): no sort, and the
    /// walk stops after `limit` rows. The cursor is a row-value comparison: SQLite bounds the index
    /// range by its `started` half and checks the `id` half (a rowid) only on the rows that share the
    /// cursor's `started`, so a page costs the same however deep it is. Excluded apps are a residual
    /// filter on that walk: an opted-out app's rows are still read, then skipped (purging them ends
    /// that cost). The text depends only on which filters are present and on how many apps are
    /// excluded, so it is cached.
    static func recentSQL(
        _ query: RecentQuery, cursor: (started: Microseconds, id: Int64)?, limit: Int
    ) -> (sql: String, values: [SQLiteValue]) {
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        if let appID = query.appID {
            conditions.append("app_id = ?")
            values.append(.text(appID))
        }
        if let since = query.since {
            conditions.append("started >= ?")
            values.append(.integer(since))
        }
        // Both `until` and the cursor are upper bounds on `started`, and SQLite bounds the index range
        // by only one of them, checking the other row by row; so only the tighter one is written (it
        // implies the other): a cursor deep below `until` must not cost a walk from `until` down.
        var cursor = cursor
        if let until = query.until, let bound = cursor, bound.started >= until { cursor = nil }
        if let until = query.until, cursor == nil {
            conditions.append("started < ?")
            values.append(.integer(until))
        }
        if let cursor {
            conditions.append("(started, id) < (?, ?)")
            values.append(.integer(cursor.started))
            values.append(.integer(cursor.id))
        }
        if query.appID == nil, !query.excludingApps.isEmpty {
            conditions.append("app_id NOT IN (\(placeholders(query.excludingApps.count)))")
            values.append(contentsOf: query.excludingApps.sorted().map(SQLiteValue.text))
        }
        values.append(.integer(Int64(limit)))
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let text = "SELECT \(AssetColumns.storedList) FROM assets\(filter) ORDER BY started DESC, id DESC LIMIT ?"
        return (text, values)
    }
}
