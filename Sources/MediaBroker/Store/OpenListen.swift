/// A listen still in progress, as last checkpointed.
public struct OpenListen: Sendable, Hashable {
    /// The caller's key for it, e.g. the player's unique bus name and the start time.
    public var key: String
    public var asset: MediaAsset
    /// When it was last written.
    public var checkpoint: Microseconds

    public init(key: String, asset: MediaAsset, checkpoint: Microseconds) {
        self.key = key
        self.asset = asset
        self.checkpoint = checkpoint
    }
}
