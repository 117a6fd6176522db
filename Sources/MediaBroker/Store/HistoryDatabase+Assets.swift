import BrokerCore

/// Recording assets, idempotently.
extension HistoryDatabase {
    static let insertSQL = StatementText("""
        INSERT INTO assets(\(AssetColumns.list)) VALUES(\(AssetColumns.values))
        ON CONFLICT(app_id, started, title) DO NOTHING
        """)
    static let existingIDSQL = StatementText("SELECT id FROM assets WHERE app_id = ?1 AND started = ?2 AND title = ?3")

    /// Records one asset atomically: in its own transaction (on disk when this returns), or inside
    /// the store's group commit (on disk when that commits).
    func insert(_ asset: MediaAsset, correctedFrom told: MediaAsset? = nil) throws(StoreError) -> InsertOutcome {
        try sql { () throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) in try insertInTransaction(asset, correctedFrom: told) }
        }
    }

    /// The insert itself, for callers that already hold a transaction. The asset's own `id` is
    /// ignored: ids are the store's to give. `told`: the words the player told, when a correction
    /// rule changed them — kept as the asset's first words, so the correction can be undone.
    ///
    /// `ON CONFLICT DO NOTHING` keeps the first delivery of a listen; the existing id is then looked
    /// up through the same unique index that detected the conflict.
    func insertInTransaction(_ asset: MediaAsset, correctedFrom told: MediaAsset? = nil) throws(SQLiteError) -> InsertOutcome {
        let inserted = try connection.cachedStatement(Self.insertSQL).use { statement throws(SQLiteError) in
            try AssetColumns.bind(asset, to: statement)
            try statement.step()
            return connection.changes == 1
        }
        if inserted {
            let id = connection.lastInsertRowID
            if let told { try keepFirstWords(of: id, told, at: asset.ended) }
            return InsertOutcome(id: id, wasNew: true)
        }
        let existing = try connection.cachedStatement(Self.existingIDSQL).use { statement throws(SQLiteError) in
            try statement.bind(asset.appID, at: 1)
            try statement.bind(asset.started, at: 2)
            try statement.bind(asset.title, at: 3)
            return try statement.step() ? statement.int64(at: 0) : nil
        }
        guard let existing else {
            // A conflict on the unique index with no row behind it: the index and table disagree.
            throw SQLiteError(code: .corrupt, message: "assets_identity names a missing row", sql: Self.existingIDSQL.sql)
        }
        return InsertOutcome(id: existing, wasNew: false)
    }

    /// The number of assets stored. `count(*)` walks the smallest index: linear, but only in pages
    /// of ids, a few milliseconds per hundred thousand assets.
    func count() throws(StoreError) -> Int {
        try sql { () throws(SQLiteError) in
            Int(try connection.cachedStatement("SELECT count(*) FROM assets").use { statement throws(SQLiteError) in
                try statement.step() ? statement.int64(at: 0) : 0
            })
        }
    }

    /// `started` of the oldest asset, to schedule retention only when something can expire; `nil`
    /// when the store is empty. `min()` on an indexed column reads one end of the index.
    func oldestStarted() throws(StoreError) -> Microseconds? {
        try sql { () throws(SQLiteError) in
            try connection.cachedStatement("SELECT min(started) FROM assets").use { statement throws(SQLiteError) in
                try statement.step() ? statement.optionalInt64(at: 0) : nil
            }
        }
    }

    /// Every app with assets: count and last listen from a covering walk of `assets_by_app`, name and
    /// icon from each app's newest asset (one index probe per app).
    func appSummaries() throws(StoreError) -> [AppSummary] {
        let query = """
            SELECT s.app_id, s.listens, s.last_seen,
                (SELECT app_name FROM assets a WHERE a.app_id = s.app_id ORDER BY started DESC, id DESC LIMIT 1),
                (SELECT app_icon FROM assets a WHERE a.app_id = s.app_id ORDER BY started DESC, id DESC LIMIT 1),
                (SELECT group_concat(site, ' ') FROM (SELECT DISTINCT site FROM assets a
                    WHERE a.app_id = s.app_id AND site IS NOT NULL ORDER BY site))
            FROM (SELECT app_id, count(*) AS listens, max(started) AS last_seen FROM assets GROUP BY app_id) s
            ORDER BY s.last_seen DESC, s.app_id
            """
        return try sql { () throws(SQLiteError) in
            try connection.cachedStatement(query).use { statement throws(SQLiteError) in
                try statement.rows { row throws(SQLiteError) in
                    AppSummary(
                        appID: try row.requiredText(at: 0, column: "app_id"),
                        appName: row.text(at: 3), appIcon: row.text(at: 4),
                        listens: Int(row.int64(at: 1)), lastSeen: row.int64(at: 2),
                        // A site holds no space (`AssetContract.site(normalizing:)`).
                        sites: (row.text(at: 5) ?? "").split(separator: " ").map(String.init))
                }
            }
        }
    }
}

/// `?, ?, …` for `count` parameters.
func placeholders(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
}
