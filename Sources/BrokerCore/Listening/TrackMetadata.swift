import AssetContract

/// What a player says it is playing: the MPRIS `Metadata` keys the broker uses, read leniently and
/// bounded (see ``Limits``).
///
/// Every value is either present and meaningful or absent: empty strings, `['']` and whitespace are
/// absent (quirk 5), a length that is ≤ 0 or absurd is unknown (quirk 2). Values are made fit at
/// construction — by ``decode(_:)-(DBusValue)`` and by the memberwise initialiser alike — so no
/// `TrackMetadata` ever holds more than the limits allow.
///
/// Two values compare equal when every field is equal; that is the cheap test that drops identical
/// repeats (quirks 7 and 8). Which values are the *same track* is ``identity`` and
/// ``isSameTrack(as:)``.
package struct TrackMetadata: Sendable, Hashable {
    /// The fields live in one immutable object, so a copy of a metadata value — and of every
    /// listen, effect and event that holds one — is a single reference count, not one per string
    /// and list: a track change copies metadata many times over.
    private let fields: Fields

    /// `mpris:trackid`, as an object path or a string (quirk 3). Not unique on its own (quirk 4).
    package var trackID: String? { fields.trackID }
    /// `xesam:title`. Without one there is no asset. A web address is no title (``AddressTitle``).
    package var title: String? { fields.title }
    /// `xesam:artist`, in order, without empties and duplicates.
    package var artists: [String] { fields.artists }
    /// `xesam:album`.
    package var album: String? { fields.album }
    /// `xesam:albumArtist`.
    package var albumArtists: [String] { fields.albumArtists }
    /// `xesam:genre`.
    package var genres: [String] { fields.genres }
    /// `xesam:url`; an over-long URL is absent rather than cut (a cut URL names something else).
    package var url: String? { fields.url }
    /// `mpris:length` in microseconds, when known and plausible.
    package var length: Microseconds? { fields.length }
    /// The player marked this item as not to be recorded (`mediabroker:exclude`).
    package var isExcluded: Bool { fields.isExcluded }
    /// The kind of media, when the metadata tells it (``kind(genres:trackID:url:)``).
    package var kind: MediaAsset.Kind? { fields.kind }
    /// `mpris:artUrl` as the player sent it (a local file, a `data:` URL, an `http(s)` URL; see
    /// ``ArtworkSource``), at most ``ArtworkSource/maximumURLBytes``. Not part of which track it is,
    /// nor of equality.
    package var artURL: String? { fields.artURL }

    private final class Fields: Sendable {
        let trackID: String?
        let title: String?
        let artists: [String]
        let album: String?
        let albumArtists: [String]
        let genres: [String]
        let url: String?
        let length: Microseconds?
        let isExcluded: Bool
        let kind: MediaAsset.Kind?
        let artURL: String?

        init(
            trackID: String?, title: String?, artists: [String], album: String?, albumArtists: [String],
            genres: [String], url: String?, length: Microseconds?, isExcluded: Bool, kind: MediaAsset.Kind?, artURL: String?
        ) {
            self.trackID = trackID
            self.title = title
            self.artists = artists
            self.album = album
            self.albumArtists = albumArtists
            self.genres = genres
            self.url = url
            self.length = length
            self.isExcluded = isExcluded
            self.kind = kind
            self.artURL = artURL
        }
    }

    /// Every field equal (`kind` follows from the others) but ``artURL``: a browser tells a new
    /// temporary art file for the same track again and again (quirk 18), and that is no change of
    /// what plays. The same object is equal at once.
    package static func == (a: TrackMetadata, b: TrackMetadata) -> Bool {
        let x = a.fields, y = b.fields
        return x === y
            || (x.title == y.title && x.trackID == y.trackID && x.url == y.url && x.album == y.album
                && x.length == y.length && x.isExcluded == y.isExcluded && x.artists == y.artists
                && x.albumArtists == y.albumArtists && x.genres == y.genres)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(trackID)
        hasher.combine(title)
        hasher.combine(artists)
        hasher.combine(album)
        hasher.combine(albumArtists)
        hasher.combine(genres)
        hasher.combine(url)
        hasher.combine(length)
        hasher.combine(isExcluded)
    }

    /// The bounds on what one metadata value holds; anything beyond is cut, never an error.
    package enum Limits {
        /// UTF-8 bytes kept of a title, an album, and each artist, album artist and genre. Cut at a
        /// `Character` boundary. (mpris-scrobbler drops titles ≥ 384 B; real titles with featured
        /// artists and RTL or emoji text stay well under 1 KiB.) The asset contract's limit.
        package static let maximumTextBytes = AssetContract.maximumTextBytes
        /// UTF-8 bytes kept of a track id.
        static let maximumTrackIDBytes = 1024
        /// UTF-8 bytes of the longest URL kept; a longer one is absent.
        static let maximumURLBytes = 4096
        /// Artists (and album artists) kept per track, the first ones in order. mpris-scrobbler
        /// asserts on more than 8; classical recordings and compilations list dozens.
        package static let maximumArtists = AssetContract.maximumArtists
        /// Genres kept per track.
        package static let maximumGenres = 16
        /// The shortest length believed: shorter is unknown. A length below one second is what a
        /// player sending milliseconds (a DeaDBeeF plugin) produces for tracks up to 16 minutes,
        /// and no track that could qualify as a listen is that short.
        package static let minimumLength: Microseconds = 1_000_000
        /// The longest length believed (one week): longer is unknown. The longest audiobooks run
        /// for a few days.
        package static let maximumLength: Microseconds = 7 * 24 * 3600 * 1_000_000
    }

    /// A metadata value from its fields, cleaned and bounded exactly as ``decode(_:)-(DBusValue)``
    /// would: strings trimmed, control characters turned to spaces, empties removed, lengths checked.
    package init(
        trackID: String? = nil, title: String? = nil, artists: [String] = [], album: String? = nil,
        albumArtists: [String] = [], genres: [String] = [], url: String? = nil, length: Microseconds? = nil,
        isExcluded: Bool = false, artURL: String? = nil
    ) {
        self.init(
            cleanedTrackID: trackID.flatMap(Self.cleanTrackID),
            title: title.flatMap(Self.cleanText),
            artists: Self.cleanList(artists, max: Limits.maximumArtists), album: album.flatMap(Self.cleanText),
            albumArtists: Self.cleanList(albumArtists, max: Limits.maximumArtists),
            genres: Self.cleanList(genres, max: Limits.maximumGenres), url: url.flatMap(Self.cleanURL),
            length: length.flatMap(Self.plausibleLength), isExcluded: isExcluded, artURL: artURL.flatMap(Self.boundedArtURL))
    }

    /// Assigns already cleaned fields. A title that is a web address is no title (``AddressTitle``).
    package init(
        cleanedTrackID trackID: String?, title: String?, artists: [String], album: String?, albumArtists: [String],
        genres: [String], url: String?, length: Microseconds?, isExcluded: Bool, artURL: String?
    ) {
        fields = Fields(
            trackID: trackID, title: title.flatMap { AddressTitle.isAddress($0, url: url) ? nil : $0 }, artists: artists, album: album, albumArtists: albumArtists,
            genres: genres, url: url, length: length, isExcluded: isExcluded,
            kind: Self.kind(genres: genres, trackID: trackID, url: url), artURL: artURL)
    }

    /// An art URL kept as sent, when it is not empty and not longer than the broker reads.
    package static func boundedArtURL(_ url: String) -> String? {
        url.isEmpty || url.utf8.count > ArtworkSource.maximumURLBytes ? nil : url
    }

    /// No metadata at all (what Spotify sends until its first track change).
    package static let empty = TrackMetadata()

    /// The artists joined with `", "`, as the contract's `artist` key; `nil` when there are none.
    package var artist: String? { artists.isEmpty ? nil : artists.joined(separator: ", ") }
}

// MARK: - Cleaning

extension TrackMetadata {
    package static func cleanText(_ text: String) -> String? { BoundedText.clean(text, maxBytes: Limits.maximumTextBytes) }

    package static func cleanTrackID(_ text: String) -> String? { BoundedText.clean(text, maxBytes: Limits.maximumTrackIDBytes) }

    package static func cleanURL(_ text: String) -> String? {
        guard text.utf8.count <= Limits.maximumURLBytes + 64 else { return nil }  // cheap reject before cleaning
        guard let url = BoundedText.clean(text, maxBytes: Limits.maximumURLBytes + 1), url.utf8.count <= Limits.maximumURLBytes
        else { return nil }
        return url
    }

    /// Up to `max` cleaned, non-empty, distinct strings, in order, from the first
    /// `examinedPerKept × max` items only. Stops reading once `max` are kept, so 10,000 artists cost
    /// no more than 64 — and a list of thousands of copies (or blanks) costs no more than 256
    /// cleanings: without the bound, 4,000 copies of a 600-byte artist took 148 ms of CPU to clean.
    package static func cleanList(_ items: [String], max: Int) -> [String] {
        var kept: [String] = []
        for item in items.prefix(max * Self.examinedPerKept) {
            guard let text = cleanText(item), !kept.contains(text) else { continue }
            kept.append(text)
            if kept.count == max { break }
        }
        return kept
    }

    /// How many items of a list are looked at per item that may be kept (duplicates and blanks
    /// included); no real player repeats an artist four times over.
    package static let examinedPerKept = 4

    /// `length` when it is a believable track length, else `nil` (unknown).
    package static func plausibleLength(_ length: Microseconds) -> Microseconds? {
        (Limits.minimumLength...Limits.maximumLength).contains(length) ? length : nil
    }
}
