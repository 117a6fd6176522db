import BrokerCore

/// Listens in progress: a small table written at every checkpoint, read at start-up.
extension HistoryDatabase {
    static let saveOpenListenSQL = StatementText("""
        INSERT INTO open_listens(key, \(AssetColumns.list), checkpointed)
        VALUES(?, \(AssetColumns.values), ?)
        ON CONFLICT(key) DO UPDATE SET
        \(AssetColumns.names.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")),
        checkpointed = excluded.checkpointed
        """)
    static let deleteOpenListenSQL = StatementText("DELETE FROM open_listens WHERE key = ?1")

    /// Writes (or overwrites) the checkpoint of a listen in progress, in one statement: on disk when
    /// it returns, or when the enclosing group commit commits.
    func saveOpenListen(key: String, asset: MediaAsset, checkpoint: Microseconds) throws(StoreError) {
        try sql { () throws(SQLiteError) in
            try connection.cachedStatement(Self.saveOpenListenSQL).use { statement throws(SQLiteError) in
                try statement.bind(key, at: 1)
                try AssetColumns.bind(asset, to: statement, from: 2)
                try statement.bind(checkpoint, at: AssetColumns.count + 2)
                try statement.step()
            }
        }
    }

    /// Every listen in progress, oldest first.
    func openListens() throws(StoreError) -> [OpenListen] {
        let query = "SELECT key, \(AssetColumns.list), checkpointed FROM open_listens ORDER BY started, key"
        return try sql { () throws(SQLiteError) in
            try connection.cachedStatement(query).use { statement throws(SQLiteError) in
                var decoder = AssetColumns.Decoder(artworkFolder: ArtworkFolder.path(besideDatabase: path))
                return try statement.rows { row throws(SQLiteError) in
                    OpenListen(
                        key: try row.requiredText(at: 0, column: "key"),
                        asset: try decoder.read(row, id: nil, from: 1),
                        checkpoint: row.int64(at: AssetColumns.count + 1))
                }
            }
        }
    }

    func removeOpenListen(key: String) throws(StoreError) {
        let artwork = try sql { () throws(SQLiteError) in
            try connection.cachedStatement("SELECT artwork FROM open_listens WHERE key = ?1").use { statement throws(SQLiteError) in
                try statement.bind(key, at: 1)
                return try statement.step() ? statement.text(at: 0) : nil
            }
        }
        try sql { () throws(SQLiteError) in try deleteOpenListen(key: key) }
        // A listen that never counted leaves no art behind.
        if let artwork { try removeArtworkIfUnreferenced(artwork) }
    }

    /// Records the finished listen and forgets its checkpoint in one transaction: after a crash
    /// there is either the open listen or the asset, never both and never neither.
    func finishOpenListen(key: String, asset: MediaAsset, correctedFrom told: MediaAsset? = nil) throws(StoreError) -> InsertOutcome {
        try sql { () throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) in
                let outcome = try insertInTransaction(asset, correctedFrom: told)
                try deleteOpenListen(key: key)
                return outcome
            }
        }
    }

    private func deleteOpenListen(key: String) throws(SQLiteError) {
        try connection.cachedStatement(Self.deleteOpenListenSQL).use { statement throws(SQLiteError) in
            try statement.bind(key, at: 1)
            try statement.step()
        }
    }
}
