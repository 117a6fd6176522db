/// What the store answers for an insert.
public struct InsertOutcome: Sendable, Hashable {
    /// The asset's id: the new one, or the id of the asset already recorded for the same listen.
    public var id: Int64
    /// `false` when the same listen (same `appID`, `started` and `title`) was already stored; the
    /// stored asset was kept as it was, and no `MediaAdded` is due.
    public var wasNew: Bool

    public init(id: Int64, wasNew: Bool) {
        self.id = id
        self.wasNew = wasNew
    }
}
