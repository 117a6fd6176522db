package import AssetContract

/// Microseconds since the Unix epoch (UTC) — the contract's unit for every instant on the wire.
package typealias Microseconds = Int64

/// One GenericMedia item as the broker records it: what was heard, from which app, and when.
///
/// Strings are never empty: an empty value is stored as `nil` (the contract's "absent key").
package struct MediaAsset: Sendable, Hashable {
    /// Where an asset came from (``MediaSource``).
    package typealias Source = MediaSource

    /// What kind of media it was (``MediaKind``), when the metadata tells; never a guess.
    package typealias Kind = MediaKind

    /// Identifier in the store; `nil` until the asset has been stored.
    package var id: Int64?
    package var title: String
    package var artists: [String]
    package var album: String?
    package var appID: String
    package var appName: String?
    package var appIcon: String?
    package var started: Microseconds
    package var ended: Microseconds
    package var listened: Microseconds
    package var length: Microseconds?
    package var kind: Kind?
    package var source: Source
    /// The absolute path of the art kept for this listen (a copy the broker owns, named by its
    /// content), when the player pointed at a local or `data:` image.
    package var artwork: String?
    /// The player's `http(s)` art URL, kept and never fetched.
    package var artworkURL: String?
    /// For a listen in a web browser, the site of the page (``BrowserSites``).
    package var site: String?

    package init(
        id: Int64? = nil, title: String, artists: [String] = [], album: String? = nil,
        appID: String, appName: String? = nil, appIcon: String? = nil,
        started: Microseconds, ended: Microseconds, listened: Microseconds,
        length: Microseconds? = nil, kind: Kind? = nil, source: Source, artwork: String? = nil, artworkURL: String? = nil,
        site: String? = nil
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
        self.site = site
    }

    /// All artists joined with `", "`, as the contract's `artist` key.
    package var artist: String? { artists.isEmpty ? nil : artists.joined(separator: ", ") }
}
