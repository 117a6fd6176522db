public import AssetContract
public import FoundationEssentials

/// One thing the person listened to, as the broker recorded it — the Linux counterpart of
/// Apple's `GenericMedia` journaling suggestion asset.
///
/// Every property except ``id`` and ``date`` is optional: `nil` means the broker does not know it.
public struct GenericMedia: Sendable, Hashable, Identifiable {
    /// What kind of media it was (``MediaKind``: `music`, `podcast`, `audiobook`, `video`).
    public typealias Kind = MediaKind

    /// Where the broker learned of it (``MediaSource``): a player speaking MPRIS, or an app's
    /// direct donation.
    public typealias Source = MediaSource

    /// Identifier of the asset, unique and stable in the broker's store (always positive); also
    /// the paging cursor. ``notRecorded`` (0) for what ``MediaBrokerClient/nowPlaying()`` returns.
    public var id: Int64

    /// The ``id`` of an asset that is not (yet) in the history.
    public static let notRecorded: Int64 = 0
    public var title: String?
    /// All artists joined with `", "`.
    public var artist: String?
    /// The artists, in order (empty when unknown).
    public var artists: [String]
    /// Album, or the show for a podcast.
    public var album: String?
    /// Normalised app identity: the desktop-file id without `.desktop`, else the MPRIS name stem.
    public var appID: String?
    /// The app's human name.
    public var appName: String?
    /// Absolute path of the app's icon file (PNG or SVG), as it was when the asset was made.
    public var appIcon: String?
    /// When the listen began — GenericMedia's date.
    public var date: Date
    /// When the listen ended (or its latest checkpoint while still playing).
    public var ended: Date?
    /// Time actually heard (time playing × rate; seeking adds nothing).
    public var listened: Duration?
    /// The track's length, when known.
    public var length: Duration?
    public var kind: Kind?
    public var source: Source?
    /// Absolute path of the art the broker kept for this listen (PNG, JPEG or WebP), when the
    /// player showed one from a local file or a `data:` URL.
    public var artwork: String?
    /// The player's `http(s)` art URL, when it gave one; the broker never fetches it.
    public var artworkURL: String?
    /// For a listen in a web browser, the site of the page: its host, without path or query
    /// (interface version 7).
    public var site: String?
    /// One line ready to display: "Teardrop — Massive Attack · Mezzanine".
    public var summary: String?
    /// Keys this client does not know, as the broker sent them: a newer broker never breaks an
    /// older app, and an app can still show what it finds here.
    public var otherFields: [String: OtherField]

    /// The value of a key this client does not know.
    public enum OtherField: Sendable, Hashable {
        case text(String)
        case texts([String])
        case integer(Int64)
        case number(Double)
        case boolean(Bool)
        /// A value of another D-Bus type, by its signature.
        case unsupported(signature: String)
    }

    public init(
        id: Int64, title: String? = nil, artist: String? = nil, artists: [String] = [],
        album: String? = nil, appID: String? = nil, appName: String? = nil, appIcon: String? = nil,
        date: Date, ended: Date? = nil, listened: Duration? = nil, length: Duration? = nil,
        kind: Kind? = nil, source: Source? = nil, artwork: String? = nil, artworkURL: String? = nil,
        site: String? = nil, summary: String? = nil, otherFields: [String: OtherField] = [:]
    ) {
        self.id = id
        self.title = title
        self.artist = artist ?? (artists.isEmpty ? nil : artists.joined(separator: ", "))
        self.artists = artists
        self.album = album
        self.appID = appID
        self.appName = appName
        self.appIcon = appIcon
        self.date = date
        self.ended = ended
        self.listened = listened
        self.length = length
        self.kind = kind
        self.source = source
        self.artwork = artwork
        self.artworkURL = artworkURL
        self.site = site
        self.summary = summary
        self.otherFields = otherFields
    }
}
