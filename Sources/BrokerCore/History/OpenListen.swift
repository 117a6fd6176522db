/// A listen still in progress, as last checkpointed.
package struct OpenListen: Sendable, Hashable {
    /// The caller's key for it, e.g. the player's unique bus name and the start time.
    package var key: String
    package var asset: MediaAsset
    /// When it was last written.
    package var checkpoint: Microseconds

    package init(key: String, asset: MediaAsset, checkpoint: Microseconds) {
        self.key = key
        self.asset = asset
        self.checkpoint = checkpoint
    }
}
