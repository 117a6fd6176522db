/// Which track a metadata value names: the track id *and* the title, artists, album and URL
/// (quirk 4 — Firefox sends one track id for every track, Strawberry and Finamp send none).
///
/// The length is not part of it (mpv changes it mid-stream, quirk 2), nor are genres, album artists
/// or the exclusion flag: a change to those is news about the same track.
package struct TrackIdentity: Sendable, Hashable {
    package var trackID: String?
    package var title: String?
    package var artists: [String]
    package var album: String?
    package var url: String?

    package init(trackID: String?, title: String?, artists: [String], album: String?, url: String?) {
        self.trackID = trackID
        self.title = title
        self.artists = artists
        self.album = album
        self.url = url
    }
}

extension TrackMetadata {
    package var identity: TrackIdentity {
        TrackIdentity(trackID: trackID, title: title, artists: artists, album: album, url: url)
    }

    /// Whether this value names the same track as `earlier`, with fields filled in or left out —
    /// the partial metadata players send over a few hundred milliseconds (quirk 7: Firefox sends the
    /// title, then the album).
    ///
    /// Both must have the same title; each of track id, album, URL and artists must be equal where
    /// both have it. A field present in one and absent in the other contradicts nothing. Without a
    /// title on both sides only an equal ``identity`` is the same track (see
    /// ``fillsIn(untitled:)`` for a title arriving late).
    func isSameTrack(as earlier: TrackMetadata) -> Bool {
        if hasSameIdentity(as: earlier) { return true }
        guard let title, title == earlier.title else { return false }
        return Self.agree(trackID, earlier.trackID) && Self.agree(album, earlier.album)
            && Self.agree(url, earlier.url)
            && (artists.isEmpty || earlier.artists.isEmpty || artists == earlier.artists)
    }

    /// Whether this value completes `earlier`, which had no title: every field `earlier` has is here
    /// unchanged (a track id, then a title; an empty map, then everything). The caller decides how
    /// soon that must happen — an untitled value can also be the *previous* track that the player
    /// never described (Spotify is empty until its first track change).
    func fillsIn(untitled earlier: TrackMetadata) -> Bool {
        guard earlier.title == nil else { return false }
        return Self.contains(trackID, earlier.trackID) && Self.contains(album, earlier.album)
            && Self.contains(url, earlier.url) && (earlier.artists.isEmpty || artists == earlier.artists)
    }

    /// This value with whatever it lacks taken from `earlier` — the fullest metadata of one track.
    /// Exclusion is sticky: once an item was marked excluded it stays so.
    func merged(over earlier: TrackMetadata) -> TrackMetadata {
        TrackMetadata(
            cleanedTrackID: trackID ?? earlier.trackID, title: title ?? earlier.title,
            artists: artists.isEmpty ? earlier.artists : artists, album: album ?? earlier.album,
            albumArtists: albumArtists.isEmpty ? earlier.albumArtists : albumArtists,
            genres: genres.isEmpty ? earlier.genres : genres, url: url ?? earlier.url,
            length: length ?? earlier.length, isExcluded: isExcluded || earlier.isExcluded, artURL: artURL ?? earlier.artURL)
    }

    /// `identity == earlier.identity`, field by field, without building the two identities.
    func hasSameIdentity(as earlier: TrackMetadata) -> Bool {
        trackID == earlier.trackID && title == earlier.title && artists == earlier.artists && album == earlier.album
            && url == earlier.url
    }

    private static func agree(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return true }
        return a == b
    }

    /// `value` has `required` when `required` is set.
    private static func contains(_ value: String?, _ required: String?) -> Bool {
        guard let required else { return true }
        return value == required
    }
}
