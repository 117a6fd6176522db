/// Listens in progress, checkpointed so that a crash loses none (issue 3).
extension HistoryStore {
    /// Writes the checkpoint of a listen in progress under `key` (replacing any earlier one);
    /// durable when the completion runs.
    public func saveOpenListen(
        key: String, asset: MediaAsset, checkpoint: Microseconds, completion: @escaping Completion<Void>
    ) {
        perform(.write, { database throws(StoreError) in
            try database.saveOpenListen(key: key, asset: asset, checkpoint: checkpoint)
        }, completion: completion)
    }

    public func saveOpenListen(key: String, asset: MediaAsset, checkpoint: Microseconds) async throws(StoreError) {
        try await bridge { saveOpenListen(key: key, asset: asset, checkpoint: checkpoint, completion: $0) }
    }

    /// Keeps an image secured from a player in the artwork folder (see
    /// ``HistoryDatabase/keepArtwork(_:now:)``), before the listen that names it is written.
    func keepArtwork(_ artwork: SecuredArtwork, completion: @escaping Completion<Void>) {
        perform(.write, { database throws(StoreError) in try database.keepArtwork(artwork, now: WallClock.now) }, completion: completion)
    }

    /// Every listen in progress, as last checkpointed — what a restarted broker picks up.
    public func openListens(completion: @escaping Completion<[OpenListen]>) {
        perform({ database throws(StoreError) in try database.openListens() }, completion: completion)
    }

    public func openListens() async throws(StoreError) -> [OpenListen] {
        try await bridge { openListens(completion: $0) }
    }

    /// Forgets a listen in progress without recording it (too short, discarded by an opt-out).
    public func removeOpenListen(key: String, completion: @escaping Completion<Void>) {
        perform(.write, { database throws(StoreError) in try database.removeOpenListen(key: key) }, completion: completion)
    }

    public func removeOpenListen(key: String) async throws(StoreError) {
        try await bridge { removeOpenListen(key: key, completion: $0) }
    }

    /// Records the finished listen as an asset and forgets its checkpoint, in one transaction.
    public func finishOpenListen(key: String, asset: MediaAsset, completion: @escaping Completion<InsertOutcome>) {
        perform(.write, { database throws(StoreError) in
            try database.finishOpenListen(key: key, asset: asset)
        }, completion: completion)
    }

    public func finishOpenListen(key: String, asset: MediaAsset) async throws(StoreError) -> InsertOutcome {
        try await bridge { finishOpenListen(key: key, asset: asset, completion: $0) }
    }
}
