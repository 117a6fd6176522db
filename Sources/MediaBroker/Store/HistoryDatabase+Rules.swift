import BrokerCore

/// The person's correction rules (issue 34, §3): a correction made "from now on" is kept as a rule
/// for the same app's listens told with the same title and artists. The broker holds them in
/// memory (``CorrectionRules``) and reads them here at start and after each change.
extension HistoryDatabase {
    /// Every rule, oldest first (so the newest of two that match a listen is the last).
    func correctionRules() throws(StoreError) -> [CorrectionRule] {
        try sql { () throws(SQLiteError) in try rulesInTransaction() }
    }

    /// Removes rule `id`; every rule left, `nil` when there was no rule `id`. Listens it corrected
    /// keep their correction (each can still be undone).
    func removeRule(_ id: Int64) throws(StoreError) -> [CorrectionRule]? {
        try sql { () throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) -> [CorrectionRule]? in
                try connection.cachedStatement("DELETE FROM correction_rules WHERE id = ?1").use { statement throws(SQLiteError) in
                    try statement.bind(id, at: 1)
                    try statement.step()
                }
                return connection.changes == 1 ? try rulesInTransaction() : nil
            }
        }
    }

    /// Keeps, as a rule, what makes `original` (the words asset `id` was first recorded with) read
    /// as `corrected`; when nothing differs, the rule for those words goes. Inside the edit's
    /// transaction.
    func keepRule(from original: MediaAsset, to corrected: MediaAsset, at now: Microseconds) throws(SQLiteError) {
        let correction = MediaCorrection(from: original, to: corrected)
        let told = AssetColumns.encodeArtists(original.artists) ?? ""
        guard !correction.isEmpty else {
            return try connection.cachedStatement("DELETE FROM correction_rules WHERE app_id = ?1 AND title = ?2 AND artists = ?3")
                .use { statement throws(SQLiteError) in
                    try statement.bind(original.appID, at: 1)
                    try statement.bind(original.title, at: 2)
                    try statement.bind(told, at: 3)
                    try statement.step()
                }
        }
        // A newer correction of the same words replaces the rule, and is the newest (a new id).
        try connection.cachedStatement("""
            INSERT OR REPLACE INTO correction_rules(app_id, title, artists, new_title, new_artists, album_set, new_album, created)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """).use { statement throws(SQLiteError) in
            try statement.bind(original.appID, at: 1)
            try statement.bind(original.title, at: 2)
            try statement.bind(told, at: 3)
            try statement.bind(correction.title, at: 4)
            // '' for a correction to no artist, NULL for artists left as told.
            try statement.bind(correction.artists.map { AssetColumns.encodeArtists($0) ?? "" }, at: 5)
            try statement.bind(Int64(correction.album == nil ? 0 : 1), at: 6)
            try statement.bind(correction.album ?? nil, at: 7)
            try statement.bind(now, at: 8)
            try statement.step()
        }
    }

    func rulesInTransaction() throws(SQLiteError) -> [CorrectionRule] {
        try connection.cachedStatement("""
            SELECT id, app_id, title, artists, new_title, new_artists, album_set, new_album, created
            FROM correction_rules ORDER BY id
            """).use { statement throws(SQLiteError) in
            var rules: [CorrectionRule] = []
            while try statement.step() {
                guard let appID = statement.text(at: 1), let title = statement.text(at: 2) else { continue }
                let correction = MediaCorrection(
                    title: statement.text(at: 4),
                    artists: statement.isNull(at: 5) ? nil : AssetColumns.decodeArtists(statement.textBytes(at: 5)),
                    album: statement.int64(at: 6) == 0 ? nil : .some(AssetColumns.nonEmpty(statement.text(at: 7))))
                rules.append(CorrectionRule(id: statement.int64(at: 0), appID: appID, title: title,
                                            artists: AssetColumns.decodeArtists(statement.textBytes(at: 3)),
                                            correction: correction, created: statement.int64(at: 8)))
            }
            return rules
        }
    }
}
