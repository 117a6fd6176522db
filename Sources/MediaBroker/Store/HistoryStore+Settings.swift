/// Settings kept with the data (the Media toggle, retention, opt-outs), so a setting and the data it
/// governs are written by the same transactional store and a crash never leaves one half-written.
extension HistoryStore {
    /// The value stored under `key`, `nil` when unset.
    func setting(_ key: String, completion: @escaping Completion<String?>) {
        perform({ database throws(StoreError) in try database.setting(key) }, completion: completion)
    }

    /// Stores `value` under `key`; `nil` removes the setting. Durable when the completion runs.
    func setSetting(_ key: String, _ value: String?, completion: @escaping Completion<Void>) {
        perform(.write, { database throws(StoreError) in try database.setSetting(key, value) }, completion: completion)
    }
}
