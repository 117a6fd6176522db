/// What the store answers for an insert.
package struct InsertOutcome: Sendable, Hashable {
    /// The asset's id: the new one, or the id of the asset already recorded for the same listen.
    package var id: Int64
    /// `false` when the same listen (same `appID`, `started` and `title`) was already stored; the
    /// stored asset was kept as it was, and no `MediaAdded` is due.
    package var wasNew: Bool

    package init(id: Int64, wasNew: Bool) {
        self.id = id
        self.wasNew = wasNew
    }
}
