/// Recording and reading assets.
extension HistoryStore {
    public typealias Completion<T> = @Sendable (Result<T, StoreError>) -> Void

    /// Records `asset` durably (the commit is `fsync`ed) unless the same listen — same `appID`,
    /// `started` and `title` — is already stored, in which case the stored one is kept and its id
    /// returned with `wasNew == false`. The asset's own `id` is ignored.
    public func insert(_ asset: MediaAsset, completion: @escaping Completion<InsertOutcome>) {
        perform(.write, { database throws(StoreError) in try database.insert(asset) }, completion: completion)
    }

    public func insert(_ asset: MediaAsset) async throws(StoreError) -> InsertOutcome {
        try await bridge { insert(asset, completion: $0) }
    }

    /// Records many assets in one transaction — all or none, one `fsync` — with one outcome each,
    /// in order.
    public func insert(contentsOf assets: [MediaAsset], completion: @escaping Completion<[InsertOutcome]>) {
        perform(.write, { database throws(StoreError) in try database.insert(contentsOf: assets) }, completion: completion)
    }

    public func insert(contentsOf assets: [MediaAsset]) async throws(StoreError) -> [InsertOutcome] {
        try await bridge { insert(contentsOf: assets, completion: $0) }
    }

    /// Assets newest first (by `started`, then `id`, both descending), filtered as `query` says.
    /// Fails with `.unknownCursor` when `query.beforeID` names no asset.
    public func recent(_ query: RecentQuery, completion: @escaping Completion<[MediaAsset]>) {
        perform({ database throws(StoreError) in try database.recent(query) }, completion: completion)
    }

    public func recent(_ query: RecentQuery) async throws(StoreError) -> [MediaAsset] {
        try await bridge { recent(query, completion: $0) }
    }

    /// How many assets are stored, opted-out apps included.
    public func count(completion: @escaping Completion<Int>) {
        perform({ database throws(StoreError) in try database.count() }, completion: completion)
    }

    public func count() async throws(StoreError) -> Int {
        try await bridge { count(completion: $0) }
    }

    /// `started` of the oldest asset (`nil` when there is none), so retention is scheduled only when
    /// something can expire.
    public func oldestStarted(completion: @escaping Completion<Microseconds?>) {
        perform({ database throws(StoreError) in try database.oldestStarted() }, completion: completion)
    }

    public func oldestStarted() async throws(StoreError) -> Microseconds? {
        try await bridge { oldestStarted(completion: $0) }
    }

    /// Every app that has assets, most recently heard first.
    public func appSummaries(completion: @escaping Completion<[AppSummary]>) {
        perform({ database throws(StoreError) in try database.appSummaries() }, completion: completion)
    }

    public func appSummaries() async throws(StoreError) -> [AppSummary] {
        try await bridge { appSummaries(completion: $0) }
    }
}
