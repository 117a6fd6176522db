/// Settings: a key-value table beside the data.
extension HistoryDatabase {
    func setting(_ key: String) throws(StoreError) -> String? {
        try sql { () throws(SQLiteError) in
            try connection.cachedStatement("SELECT value FROM settings WHERE key = ?1").use { statement throws(SQLiteError) in
                try statement.bind(key, at: 1)
                return try statement.step() ? statement.text(at: 0) : nil
            }
        }
    }

    /// Sets a setting; `nil` removes it.
    func setSetting(_ key: String, _ value: String?) throws(StoreError) {
        let text = value == nil
            ? "DELETE FROM settings WHERE key = ?1"
            : "INSERT INTO settings(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
        try sql { () throws(SQLiteError) in
            try connection.cachedStatement(text).use { statement throws(SQLiteError) in
                try statement.bind(key, at: 1)
                if let value { try statement.bind(value, at: 2) }
                try statement.step()
            }
        }
    }
}
