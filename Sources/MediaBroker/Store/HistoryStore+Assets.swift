import BrokerCore

/// Recording and reading assets.
extension HistoryStore {
    typealias Completion<T> = @Sendable (Result<T, StoreError>) -> Void

    /// Records `asset` durably (the commit is `fsync`ed) unless the same listen — same `appID`,
    /// `started` and `title` — is already stored, in which case the stored one is kept and its id
    /// returned with `wasNew == false`. The asset's own `id` is ignored. `told`: the words the app
    /// told, when a correction rule changed them.
    func insert(_ asset: MediaAsset, correctedFrom told: MediaAsset? = nil, completion: @escaping Completion<InsertOutcome>) {
        perform(.write, { database throws(StoreError) in try database.insert(asset, correctedFrom: told) }, completion: completion)
    }

    /// How many assets are stored, opted-out apps included.
    func count(completion: @escaping Completion<Int>) {
        perform({ database throws(StoreError) in try database.count() }, completion: completion)
    }

    /// `started` of the oldest asset (`nil` when there is none), so retention is scheduled only when
    /// something can expire.
    func oldestStarted(completion: @escaping Completion<Microseconds?>) {
        perform({ database throws(StoreError) in try database.oldestStarted() }, completion: completion)
    }

    /// Every app that has assets, most recently heard first.
    func appSummaries(completion: @escaping Completion<[AppSummary]>) {
        perform({ database throws(StoreError) in try database.appSummaries() }, completion: completion)
    }
}
