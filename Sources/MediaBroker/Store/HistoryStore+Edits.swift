import BrokerCore

/// Correcting a kept listen, and undoing it (see ``HistoryDatabase/edit(_:with:at:)``).
extension HistoryStore {
    /// Applies `correction` to asset `id`, durably; the asset as it now reads, `nil` when the
    /// history holds no such asset.
    func edit(_ id: Int64, with correction: MediaCorrection, at now: Microseconds, completion: @escaping Completion<MediaAsset?>) {
        perform(.write, { database throws(StoreError) in try database.edit(id, with: correction, at: now) }, completion: completion)
    }

    /// Puts back the words asset `id` was first recorded with; `nil` when it holds no correction.
    func undoEdit(_ id: Int64, completion: @escaping Completion<MediaAsset?>) {
        perform(.write, { database throws(StoreError) in try database.undoEdit(id) }, completion: completion)
    }
}
