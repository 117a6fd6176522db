/// What kind of media an asset is, as the contract's `kind` key spells it (`music`, `podcast`,
/// `audiobook`, `video`): told by the metadata, never a guess. Open to new values, so a newer
/// broker never breaks an older client.
public struct MediaKind: RawRepresentable, Sendable, Hashable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let music = MediaKind(rawValue: "music")
    public static let podcast = MediaKind(rawValue: "podcast")
    public static let audiobook = MediaKind(rawValue: "audiobook")
    public static let video = MediaKind(rawValue: "video")
}

/// Where the broker learned of an asset, as the contract's `source` key spells it: a player
/// speaking MPRIS, or an app's direct donation.
public struct MediaSource: RawRepresentable, Sendable, Hashable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let mpris = MediaSource(rawValue: "mpris")
    public static let donation = MediaSource(rawValue: "donation")
}
