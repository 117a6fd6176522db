public import FoundationEssentials

/// A run of listens a person would call one sitting — "An evening with *Mezzanine*, 21:04–22:10,
/// 9 tracks" — as the broker suggests it for a journal entry (``MediaBrokerClient/moments(since:until:limit:gap:appID:before:)``).
/// Its assets come with ``MediaBrokerClient/media(ids:)``.
public struct Moment: Sendable, Hashable, Identifiable {
    /// How the title was made, so an app can write its own in its own language.
    public struct TitleRule: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Podcasts make up most of it: ``show`` and ``episode``.
        public static let show = TitleRule(rawValue: "show")
        /// One album makes up most of it: ``album`` and ``artist``.
        public static let album = TitleRule(rawValue: "album")
        /// One artist makes up most of it: ``artist``.
        public static let artist = TitleRule(rawValue: "artist")
        /// Anything else: ``partOfDay``, ``count`` and ``artistCount``.
        public static let mixed = TitleRule(rawValue: "mixed")
    }

    /// Stable while the moment grows and across restarts; the paging cursor.
    public var id: String
    public var title: String
    /// One line ready to display: title, local times, how many tracks.
    public var summary: String?
    public var started: Date
    public var ended: Date
    public var listened: Duration
    /// How many listens it holds (at most 13).
    public var count: Int
    /// Its assets' ids, oldest first.
    public var assetIDs: [Int64]
    /// First-credited artists, most heard first.
    public var artists: [String]
    /// The album heard for most of it, when one was.
    public var album: String?
    /// Apps, most heard first, and the icon of the most heard one that has one.
    public var appIDs: [String]
    public var appIcon: String?
    public var kind: GenericMedia.Kind?
    public var titleRule: TitleRule
    /// The artist in the title (album and artist rules).
    public var artist: String?
    /// The show and the episode (show rule).
    public var show: String?
    public var episode: String?
    /// How many different episodes of the show it holds (show rule; `nil` from a broker older
    /// than interface version 10).
    public var episodeCount: Int?
    public var artistCount: Int
    /// `morning`, `afternoon`, `evening` or `night`, in the broker's local time.
    public var partOfDay: String?

    public init(
        id: String, title: String, summary: String? = nil, started: Date, ended: Date, listened: Duration, count: Int,
        assetIDs: [Int64], artists: [String] = [], album: String? = nil, appIDs: [String] = [], appIcon: String? = nil,
        kind: GenericMedia.Kind? = nil, titleRule: TitleRule, artist: String? = nil, show: String? = nil,
        episode: String? = nil, episodeCount: Int? = nil, artistCount: Int = 0, partOfDay: String? = nil
    ) {
        self.id = id
        self.title = title
        self.summary = summary
        self.started = started
        self.ended = ended
        self.listened = listened
        self.count = count
        self.assetIDs = assetIDs
        self.artists = artists
        self.album = album
        self.appIDs = appIDs
        self.appIcon = appIcon
        self.kind = kind
        self.titleRule = titleRule
        self.artist = artist
        self.show = show
        self.episode = episode
        self.episodeCount = episodeCount
        self.artistCount = artistCount
        self.partOfDay = partOfDay
    }
}
