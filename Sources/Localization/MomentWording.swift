/// A moment's title and line in the person's language, from the facts the broker makes its
/// English title of (Sources/BrokerCore/Moments/MomentTitle.swift has the rules). The music's own
/// words — show, episode, album, artist — stay as they are; only the words around them are
/// translated. The picker words moments from what the client library reads, the daemon's
/// suggestion from its own; both come here, so they read alike.
public struct MomentWording: Sendable {
    /// `show`, `album`, `artist` or `mixed`, as the broker names its title rules.
    public var rule: String
    public var show: String?
    public var episode: String?
    public var episodeCount: Int
    public var album: String?
    public var artist: String?
    public var trackCount: Int
    public var artistCount: Int
    /// `morning`, `afternoon`, `evening` or `night`.
    public var partOfDay: String?

    public init(rule: String, show: String? = nil, episode: String? = nil, episodeCount: Int = 0, album: String? = nil,
                artist: String? = nil, trackCount: Int, artistCount: Int, partOfDay: String? = nil) {
        self.rule = rule
        self.show = show
        self.episode = episode
        self.episodeCount = episodeCount
        self.album = album
        self.artist = artist
        self.trackCount = trackCount
        self.artistCount = artistCount
        self.partOfDay = partOfDay
    }

    /// The title, or `nil` when a fact its rule needs is missing (or the rule is unknown): the
    /// caller keeps the broker's own title then.
    public var title: String? {
        switch rule {
        case "show":
            guard let show else { return nil }
            if let episode {
                // TRANSLATORS: a moment of one podcast episode: the show's name, then the episode's.
                return localized("{show}: {episode}", ["show": show, "episode": episode])
            }
            return localizedPlural("{show} · {count} episode", "{show} · {count} episodes", count: episodeCount, ["show": show])
        case "album":
            guard let album else { return nil }
            guard let artist else { return album }
            // TRANSLATORS: a moment of one album: the album's title, then its artist.
            return localized("{album} — {artist}", ["album": album, "artist": artist])
        case "artist":
            return artist
        case "mixed":
            let tracks = Self.tracks(trackCount)
            let listening = Self.listening(partOfDay)
            guard artistCount > 0 else {
                // TRANSLATORS: a moment of music with no artist told: "Evening listening · 9 tracks".
                return localized("{listening} · {tracks}", ["listening": listening, "tracks": tracks])
            }
            // TRANSLATORS: "Evening listening · 9 tracks by 5 artists"; {tracks} is "9 tracks".
            return localizedPlural("{listening} · {tracks} by {count} artist", "{listening} · {tracks} by {count} artists",
                                   count: artistCount, ["listening": listening, "tracks": tracks])
        default:
            return nil
        }
    }

    /// "Mezzanine — Massive Attack · 21:04–22:10 · 9 tracks", the times as the locale writes them.
    public static func summary(title: String, started: LocaleTime, ended: LocaleTime, trackCount: Int) -> String {
        // TRANSLATORS: a moment's line: its title, when it started and ended, and how many tracks ("9 tracks").
        localized("{title} · {start}–{end} · {tracks}", [
            "title": title, "start": started.clockText, "end": ended.clockText, "tracks": tracks(trackCount),
        ])
    }

    static func tracks(_ count: Int) -> String {
        localizedPlural("{count} track", "{count} tracks", count: count)
    }

    static func listening(_ partOfDay: String?) -> String {
        switch partOfDay {
        case "morning": localized("Morning listening")
        case "afternoon": localized("Afternoon listening")
        case "evening": localized("Evening listening")
        case "night": localized("Late-night listening")
        default: localized("Listening")
        }
    }
}
