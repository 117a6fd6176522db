import BrokerCore

/// Correcting a kept listen's words, and undoing it (issue 34, §3). The asset's row holds the
/// corrected words — what every reader and export sees — and `edits` the words first recorded,
/// kept through any number of corrections until an undo puts them back.
extension HistoryDatabase {
    /// What an edit leaves: the asset as it now reads and, for an edit made from now on, every rule.
    struct EditOutcome: Sendable {
        var asset: MediaAsset
        var rules: [CorrectionRule]?
    }

    /// Applies `correction` to asset `id` at `now` and, `fromNowOn`, keeps it as a rule for the
    /// app's later listens told with the words the asset was first recorded with; `nil` when the
    /// history holds no such asset.
    func edit(_ id: Int64, with correction: MediaCorrection, fromNowOn: Bool = false, at now: Microseconds) throws(StoreError) -> EditOutcome? {
        try sql { () throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) -> EditOutcome? in
                guard let asset = try storedAsset(id) else { return nil }
                try keepFirstWords(of: id, asset, at: now)
                let corrected = correction.applied(to: asset)
                try setWords(of: id, to: corrected)
                guard fromNowOn else { return EditOutcome(asset: corrected) }
                var original = asset
                if let first = try firstWords(of: id) { (original.title, original.artists, original.album) = first }
                try keepRule(from: original, to: corrected, at: now)
                return EditOutcome(asset: corrected, rules: try rulesInTransaction())
            }
        }
    }

    /// Keeps `original`'s words as asset `id`'s first, unless it has first words already: a second
    /// correction keeps the same original. Inside a transaction.
    func keepFirstWords(of id: Int64, _ original: MediaAsset, at now: Microseconds) throws(SQLiteError) {
        try connection.cachedStatement("""
            INSERT INTO edits(asset_id, title, artists, album, edited) VALUES(?1, ?2, ?3, ?4, ?5)
            ON CONFLICT(asset_id) DO UPDATE SET edited = excluded.edited
            """).use { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            try statement.bind(original.title, at: 2)
            try statement.bind(AssetColumns.encodeArtists(original.artists), at: 3)
            try statement.bind(AssetColumns.nonEmpty(original.album), at: 4)
            try statement.bind(now, at: 5)
            try statement.step()
        }
    }

    /// Puts back the words asset `id` was first recorded with; the asset as it now reads, `nil`
    /// when it holds no correction (or is not in the history).
    func undoEdit(_ id: Int64) throws(StoreError) -> MediaAsset? {
        try sql { () throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) -> MediaAsset? in
                guard let original = try firstWords(of: id), var asset = try storedAsset(id) else { return nil }
                (asset.title, asset.artists, asset.album) = original
                try setWords(of: id, to: asset)
                try connection.cachedStatement("DELETE FROM edits WHERE asset_id = ?1").use { statement throws(SQLiteError) in
                    try statement.bind(id, at: 1)
                    try statement.step()
                }
                return asset
            }
        }
    }

    /// Whether asset `id` holds a correction.
    func isEdited(_ id: Int64) throws(StoreError) -> Bool {
        try sql { () throws(SQLiteError) in
            try connection.cachedStatement("SELECT 1 FROM edits WHERE asset_id = ?1").use { statement throws(SQLiteError) in
                try statement.bind(id, at: 1)
                return try statement.step()
            }
        }
    }

    /// The title, artists and album asset `id` was first recorded with, while it holds a correction.
    private func firstWords(of id: Int64) throws(SQLiteError) -> (String, [String], String?)? {
        try connection.cachedStatement("SELECT title, artists, album FROM edits WHERE asset_id = ?1")
            .use { statement throws(SQLiteError) -> (String, [String], String?)? in
                try statement.bind(id, at: 1)
                guard try statement.step(), let title = statement.text(at: 0) else { return nil }
                return (title, AssetColumns.decodeArtists(statement.textBytes(at: 1)), statement.text(at: 2))
            }
    }

    private func storedAsset(_ id: Int64) throws(SQLiteError) -> MediaAsset? {
        try connection.cachedStatement("SELECT \(AssetColumns.storedList) FROM assets WHERE id = ?1").use { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            guard try statement.step() else { return nil }
            var decoder = AssetColumns.Decoder(artworkFolder: ArtworkFolder.path(besideDatabase: path))
            return try decoder.readStored(statement)
        }
    }

    private func setWords(of id: Int64, to asset: MediaAsset) throws(SQLiteError) {
        try connection.cachedStatement("UPDATE assets SET title = ?2, artists = ?3, album = ?4 WHERE id = ?1").use { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            try statement.bind(asset.title, at: 2)
            try statement.bind(AssetColumns.encodeArtists(asset.artists), at: 3)
            try statement.bind(AssetColumns.nonEmpty(asset.album), at: 4)
            try statement.step()
        }
    }
}
