/// What the metadata says about the item beyond its fields: advert, placeholder, kind.
extension TrackMetadata {
    /// The track id MPRIS reserves for "no track" (quirk 19).
    static let noTrackID = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    /// Spotify's adverts (quirk 23): a `spotify:ad:` track id, its object-path form
    /// `/com/spotify/ad/…`, or an `open.spotify.com/ad/` URL.
    var isAdvert: Bool {
        if let trackID, trackID.hasPrefix("spotify:ad:") || trackID.hasPrefix("/com/spotify/ad/") { return true }
        if let url, url.hasPrefix("https://open.spotify.com/ad/") || url.hasPrefix("spotify:ad:") { return true }
        return false
    }

    /// Metadata that describes no media (quirks 5 and 19): no title; the MPRIS "no track" id; or a
    /// browser's stand-in when a page gave nothing — Firefox's "Firefox is playing media" (any
    /// brand) with no artist and no album, which is also what a private window shows.
    var isEmptyPlaceholder: Bool {
        guard let title else { return true }
        if trackID == Self.noTrackID { return true }
        return artists.isEmpty && album == nil && title.hasSuffix(" is playing media")
    }

    /// Whether a listen of this item may be recorded at all: it has a title, describes real media,
    /// is no advert and is not excluded.
    var isRecordable: Bool { dropReason == nil && !isEmptyPlaceholder }

    /// Why a listen of this item is never recorded, for the reasons a caller acts on.
    var dropReason: DropReason? {
        if isExcluded { return .excluded }
        if isAdvert { return .advert }
        return nil
    }

    /// The kind of media, only when the metadata tells it — never a guess:
    /// - genre `Podcast(s)` → podcast; `Audiobook(s)` / `Audio Book(s)` → audiobook;
    /// - Spotify ids: `spotify:episode:` (or `/com/spotify/episode/`) → podcast,
    ///   `spotify:track:` (or `/com/spotify/track/`) → music;
    /// - the URL's file extension: `.m4b` → audiobook; a video container (`.mkv .mp4 .m4v .avi .mov
    ///   .wmv .flv .mpg .mpeg .ogv .m2ts .mts .3gp`) → video, whatever the scheme; an audio file
    ///   (`.mp3 .flac .ogg .oga .opus .m4a .wav .aac .wma .ape .wv .aiff .aif .alac .dsf .mka`) →
    ///   music only for a local file (`file://` or an absolute path) — a remote `.mp3` is as likely
    ///   a podcast episode. `.webm` tells nothing: it is as often audio only (YouTube's audio
    ///   streams). A web page URL tells nothing.
    ///
    /// Worked out once, when the metadata is made (``TrackMetadata/kind``).
    static func kind(genres: [String], trackID: String?, url: String?) -> MediaAsset.Kind? {
        for genre in genres {
            switch genre.lowercased() {
            case "podcast", "podcasts": return .podcast
            case "audiobook", "audiobooks", "audio book", "audio books": return .audiobook
            default: continue
            }
        }
        if let trackID {
            if trackID.hasPrefix("spotify:episode:") || trackID.hasPrefix("/com/spotify/episode/") { return .podcast }
            if trackID.hasPrefix("spotify:track:") || trackID.hasPrefix("/com/spotify/track/") { return .music }
        }
        if let url {
            if url.hasPrefix("spotify:episode:") { return .podcast }
            if url.hasPrefix("spotify:track:") { return .music }
            if let fileExtension = fileExtension(of: url) {
                if fileExtension == "m4b" { return .audiobook }
                if videoExtensions.contains(fileExtension) { return .video }
                if audioExtensions.contains(fileExtension) && isLocal(url) { return .music }
            }
        }
        return nil
    }

    static let videoExtensions: Set<String> = [
        "mkv", "mp4", "m4v", "avi", "mov", "wmv", "flv", "mpg", "mpeg", "ogv", "m2ts", "mts", "3gp",
    ]
    static let audioExtensions: Set<String> = [
        "mp3", "flac", "ogg", "oga", "opus", "m4a", "wav", "aac", "wma", "ape", "wv", "aiff", "aif", "alac", "dsf", "mka",
    ]

    /// Whether `url` names a local file: `file://` or an absolute path.
    static func isLocal(_ url: String) -> Bool { url.hasPrefix("file://") || url.hasPrefix("/") }

    /// The lowercased extension of the last path element of `url` (query and fragment removed):
    /// 1 to 5 ASCII letters or digits after the last dot; `nil` when there is none.
    static func fileExtension(of url: String) -> String? {
        var url = url
        return url.withUTF8 { bytes -> String? in
            let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
            guard let dot = bytes[..<end].lastIndex(of: UInt8(ascii: ".")) else { return nil }
            let candidate = bytes[(dot + 1)..<end]
            guard (1...5).contains(candidate.count),
                  candidate.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
            else { return nil }
            return String(decoding: candidate.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
    }
}
