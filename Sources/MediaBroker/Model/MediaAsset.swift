public import AssetContract

/// Microseconds since the Unix epoch (UTC) — the contract's unit for every instant on the wire.
public typealias Microseconds = Int64

/// One GenericMedia item as the broker records it: what was heard, from which app, and when.
///
/// Strings are never empty: an empty value is stored as `nil` (the contract's "absent key").
public struct MediaAsset: Sendable, Hashable {
    /// Where an asset came from (``MediaSource``).
    public typealias Source = MediaSource

    /// What kind of media it was (``MediaKind``), when the metadata tells; never a guess.
    public typealias Kind = MediaKind

    /// Identifier in the store; `nil` until the asset has been stored.
    public var id: Int64?
    public var title: String
    public var artists: [String]
    public var album: String?
    public var appID: String
    public var appName: String?
    public var appIcon: String?
    public var started: Microseconds
    public var ended: Microseconds
    public var listened: Microseconds
    public var length: Microseconds?
    public var kind: Kind?
    public var source: Source
    /// The absolute path of the art kept for this listen (a copy the broker owns, named by its
    /// content), when the player pointed at a local or `data:` image.
    public var artwork: String?
    /// The player's `http(s)` art URL, kept and never fetched.
    public var artworkURL: String?

    public init(
        id: Int64? = nil, title: String, artists: [String] = [], album: String? = nil,
        appID: String, appName: String? = nil, appIcon: String? = nil,
        started: Microseconds, ended: Microseconds, listened: Microseconds,
        length: Microseconds? = nil, kind: Kind? = nil, source: Source, artwork: String? = nil, artworkURL: String? = nil
    ) {
        self.id = id
        self.title = title
        self.artists = artists
        self.album = album
        self.appID = appID
        self.appName = appName
        self.appIcon = appIcon
        self.started = started
        self.ended = ended
        self.listened = listened
        self.length = length
        self.kind = kind
        self.source = source
        self.artwork = artwork
        self.artworkURL = artworkURL
    }

    /// All artists joined with `", "`, as the contract's `artist` key.
    public var artist: String? { artists.isEmpty ? nil : artists.joined(separator: ", ") }
}
