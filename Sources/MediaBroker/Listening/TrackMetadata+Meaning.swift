/// What the metadata says about the item beyond its fields: advert, placeholder, kind.
extension TrackMetadata {
    /// The track id MPRIS reserves for "no track" (quirk 19).
    public static let noTrackID = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    /// Spotify's adverts (quirk 23): a `spotify:ad:` track id, its object-path form
    /// `/com/spotify/ad/…`, or an `open.spotify.com/ad/` URL.
    public var isAdvert: Bool {
        if let trackID, Self.starts(trackID, with: "spotify:ad:") || Self.starts(trackID, with: "/com/spotify/ad/") { return true }
        if let url, Self.starts(url, with: "https://open.spotify.com/ad/") || Self.starts(url, with: "spotify:ad:") { return true }
        return false
    }

    /// Metadata that describes no media (quirks 5 and 19): no title; the MPRIS "no track" id; or a
    /// browser's stand-in when a page gave nothing — Firefox's "Firefox is playing media" (any
    /// brand) with no artist and no album, which is also what a private window shows.
    public var isEmptyPlaceholder: Bool {
        guard let title else { return true }
        if trackID == Self.noTrackID { return true }
        return artists.isEmpty && album == nil && title.hasSuffix(" is playing media")
    }

    /// Whether a listen of this item may be recorded at all: it has a title, describes real media,
    /// is no advert and is not excluded.
    public var isRecordable: Bool { dropReason == nil && !isEmptyPlaceholder }

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
    /// Worked out once, when the metadata is made (``TrackMetadata/kind``): a track change asked
    /// for it four times, ~5.5k instructions (callgrind).
    static func kind(genres: [String], trackID: String?, url: String?) -> MediaAsset.Kind? {
        for genre in genres {
            switch genre.lowercased() {
            case "podcast", "podcasts": return .podcast
            case "audiobook", "audiobooks", "audio book", "audio books": return .audiobook
            default: continue
            }
        }
        if let trackID {
            if Self.starts(trackID, with: "spotify:episode:") || Self.starts(trackID, with: "/com/spotify/episode/") { return .podcast }
            if Self.starts(trackID, with: "spotify:track:") || Self.starts(trackID, with: "/com/spotify/track/") { return .music }
        }
        if let url {
            if Self.starts(url, with: "spotify:episode:") { return .podcast }
            if Self.starts(url, with: "spotify:track:") { return .music }
            let fileExtension = Self.packedExtension(of: url)
            if fileExtension != 0 {
                if fileExtension == Self.audiobookExtension { return .audiobook }
                if Self.videoExtensions.contains(fileExtension) { return .video }
                if Self.audioExtensions.contains(fileExtension) && Self.isLocal(url) { return .music }
            }
        }
        return nil
    }

    /// The extensions as ``packedExtension(of:)`` gives them: a few integer comparisons instead of
    /// hashing a new string into a `Set` for every asset built (callgrind, bench track changes).
    static let audiobookExtension = packed("m4b")
    static let videoExtensions: [UInt64] = [
        "mkv", "mp4", "m4v", "avi", "mov", "wmv", "flv", "mpg", "mpeg", "ogv", "m2ts", "mts", "3gp",
    ].map(packed)
    static let audioExtensions: [UInt64] = [
        "mp3", "flac", "ogg", "oga", "opus", "m4a", "wav", "aac", "wma", "ape", "wv", "aiff", "aif", "alac", "dsf",
        "mka",
    ].map(packed)

    private static func packed(_ fileExtension: StaticString) -> UInt64 {
        packedExtension(of: "." + fileExtension.description)
    }

    /// `text.hasPrefix(prefix)` for an ASCII `prefix`, by bytes when that gives the same answer.
    ///
    /// `hasPrefix` compares `Character`s (~190 instructions a call; `kind` made fourteen calls per
    /// track change). Bytes decide whenever the text's first bytes are ASCII: there, each byte is
    /// a `Character` of its own unless a non-ASCII one follows (a combining accent joins the
    /// character before it), so only then is `hasPrefix` asked.
    ///
    /// `prefix` must be ASCII and must not end in CR (a CR followed by LF is one `Character`).
    static func starts(_ text: String, with prefix: StaticString) -> Bool {
        let needle = UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        assert(needle.allSatisfy { $0 < 0x80 } && needle.last != UInt8(ascii: "\r"), "starts(_:with:) takes an ASCII prefix not ending in CR")
        let decided: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            // Byte by byte while both sides are ASCII: the first ASCII byte that differs decides
            // (most texts differ at once), as does running out. Non-ASCII where it matters is left
            // to `hasPrefix`, which compares characters.
            for index in 0..<needle.count {
                guard index < bytes.count else { return false }
                let byte = bytes[index]
                if byte >= 0x80 { return nil }
                if byte != needle[index] { return false }
            }
            // A combining mark after the prefix would change its last character.
            if bytes.count > needle.count, bytes[needle.count] >= 0x80 { return nil }
            return true
        } ?? nil
        return decided ?? text.hasPrefix(prefix.description)
    }

    /// Whether `url` names a local file: `file://` or an absolute path.
    static func isLocal(_ url: String) -> Bool { starts(url, with: "file://") || starts(url, with: "/") }

    /// The lowercased extension of the last path element of `url` (query and fragment removed), 1
    /// to 5 ASCII letters or digits, as an integer: its first byte the lowest (its bytes are never
    /// 0); 0 when there is none.
    ///
    /// Walks the UTF-8 bytes once, not the characters: every byte looked for is ASCII, and grapheme
    /// breaking over a long URL cost more than the rest of building an asset (callgrind, bench/run
    /// track changes). An extension is at most 5 bytes, so it fits without making a string.
    static func packedExtension(of url: String) -> UInt64 {
        var url = url
        return url.withUTF8 { bytes -> UInt64 in
            var end = 0
            while end < bytes.count, bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") { end += 1 }
            // Back from the end of the path to its last dot, as long as the bytes may be an extension.
            var lowered: UInt64 = 0
            var count = 0
            var index = end
            while index > 0 {
                index -= 1
                let byte = bytes[index]
                if byte == UInt8(ascii: ".") { break }
                guard count < 5, (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                else { return 0 }
                lowered = lowered << 8 | UInt64(byte | 0x20)  // the first byte ends up the lowest
                count += 1
            }
            guard count > 0, index < end, bytes[index] == UInt8(ascii: ".") else { return 0 }
            return lowered
        }
    }
}
