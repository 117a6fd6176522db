import BrokerCore

/// Correcting a kept listen, and undoing it (see ``HistoryDatabase/edit(_:with:at:)``).
extension HistoryStore {
    /// Applies `correction` to asset `id`, durably, and `fromNowOn` keeps it as a rule; the asset
    /// as it now reads (and every rule, from now on), `nil` when the history holds no such asset.
    func edit(_ id: Int64, with correction: MediaCorrection, fromNowOn: Bool = false, at now: Microseconds,
              completion: @escaping Completion<HistoryDatabase.EditOutcome?>) {
        perform(.write, { database throws(StoreError) in
            try database.edit(id, with: correction, fromNowOn: fromNowOn, at: now)
        }, completion: completion)
    }

    /// Every correction rule, oldest first.
    func correctionRules(completion: @escaping Completion<[CorrectionRule]>) {
        perform({ database throws(StoreError) in try database.correctionRules() }, completion: completion)
    }

    /// Removes rule `id`; every rule left, `nil` when there was no such rule.
    func removeRule(_ id: Int64, completion: @escaping Completion<[CorrectionRule]?>) {
        perform(.write, { database throws(StoreError) in try database.removeRule(id) }, completion: completion)
    }

    /// Puts back the words asset `id` was first recorded with; `nil` when it holds no correction.
    func undoEdit(_ id: Int64, completion: @escaping Completion<MediaAsset?>) {
        perform(.write, { database throws(StoreError) in try database.undoEdit(id) }, completion: completion)
    }
}
