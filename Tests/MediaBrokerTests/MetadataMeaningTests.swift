import Testing
@testable import BrokerCore
@testable import MediaBroker
import CoreFixtures

@Suite("Metadata: identity, adverts, placeholders and kind")
struct MetadataMeaningTests {
    @Test("quirk 4: one track id for every track (Firefox) — different titles are different tracks")
    func quirk4SharedTrackID() {
        let firefox = "/org/mpris/MediaPlayer2/firefox"
        let first = TrackMetadata(trackID: firefox, title: "Video one", artists: ["Channel"])
        let second = TrackMetadata(trackID: firefox, title: "Video two", artists: ["Channel"])
        #expect(first.identity != second.identity)
        #expect(!second.isSameTrack(as: first))
    }

    @Test("quirk 4: no track id at all (Strawberry, Finamp) — title, artists and album tell tracks apart")
    func quirk4NoTrackID() {
        let a = TrackMetadata(title: "Song", artists: ["A"], album: "One")
        let b = TrackMetadata(title: "Song", artists: ["A"], album: "Two")
        #expect(a.identity != b.identity)
        #expect(!b.isSameTrack(as: a))
        #expect(TrackMetadata(title: "Song", artists: ["A"], album: "One").isSameTrack(as: a))
    }

    @Test("quirk 4: same id but a different URL is a different track")
    func quirk4URL() {
        let a = TrackMetadata(trackID: "/t", title: "Stream", url: "https://a.example/1")
        let b = TrackMetadata(trackID: "/t", title: "Stream", url: "https://a.example/2")
        #expect(!b.isSameTrack(as: a))
    }

    @Test("quirk 7: a value that adds the album to the title is the same track, merged to the fullest")
    func quirk7FillIn() {
        let titleOnly = TrackMetadata(trackID: "/t/1", title: "Song")
        let full = TrackMetadata(trackID: "/t/1", title: "Song", artists: ["A"], album: "Album", length: 90 * second)
        #expect(full.isSameTrack(as: titleOnly))
        #expect(titleOnly.isSameTrack(as: full))
        #expect(titleOnly.merged(over: full) == full)
        #expect(full.merged(over: titleOnly) == full)
    }

    @Test("a track id first, then the title, completes the untitled value")
    func titleArrivesLate() {
        let idOnly = TrackMetadata(trackID: "/t/1", length: 90 * second)
        let full = TrackMetadata(trackID: "/t/1", title: "Song")
        #expect(full.fillsIn(untitled: idOnly))
        #expect(!TrackMetadata(trackID: "/t/2", title: "Song").fillsIn(untitled: idOnly))
        #expect(full.fillsIn(untitled: .empty))
        #expect(!full.fillsIn(untitled: full))
    }

    @Test("a length change is the same track (mpv revises it mid-stream)")
    func lengthIsNotIdentity() {
        let a = TrackMetadata(title: "Live", length: 60 * second)
        let b = TrackMetadata(title: "Live", length: 3_600 * second)
        #expect(a.identity == b.identity)
        #expect(b.isSameTrack(as: a))
    }

    @Test("exclusion is sticky when metadata merges")
    func exclusionSticky() {
        let excluded = TrackMetadata(title: "T", isExcluded: true)
        #expect(TrackMetadata(title: "T").merged(over: excluded).isExcluded)
    }

    @Test("quirk 23: Spotify adverts are recognised in every form", arguments: [
        TrackMetadata(trackID: "spotify:ad:000000012c603a6600000020316a17a1", title: "Spotify"),
        TrackMetadata(trackID: "/com/spotify/ad/000000012c603a66", title: "Advertisement"),
        TrackMetadata(title: "Ad", url: "https://open.spotify.com/ad/123"),
    ])
    func quirk23Adverts(metadata: TrackMetadata) {
        #expect(metadata.isAdvert)
        #expect(!metadata.isRecordable)
    }

    @Test("a Spotify track or a title containing 'ad' is no advert")
    func notAdverts() {
        #expect(!TrackMetadata(trackID: "spotify:track:4uLU6hMCjMI75M1A2tKUQC", title: "Ad Astra").isAdvert)
        #expect(!TrackMetadata(trackID: "/com/spotify/track/4uLU", title: "Bad").isAdvert)
    }

    @Test("quirk 5: Firefox's 'Firefox is playing media' with artist [''] is a placeholder")
    func quirk5FirefoxPlaceholder() {
        let metadata = TrackMetadata.decode([
            TrackMetadata.Key.title: .string("Firefox is playing media"),
            TrackMetadata.Key.artist: .strings([""]),
        ])
        #expect(metadata.isEmptyPlaceholder)
        #expect(!metadata.isRecordable)
        // The same words with a real artist are a real title.
        #expect(!TrackMetadata(title: "Firefox is playing media", artists: ["Band"]).isEmptyPlaceholder)
    }

    @Test("quirk 5: Spotify Connect's album-only metadata and Spotify's empty start are placeholders")
    func quirk5NoTitle() {
        #expect(TrackMetadata(album: "Some Album").isEmptyPlaceholder)
        #expect(TrackMetadata.empty.isEmptyPlaceholder)
    }

    @Test("quirk 19: the NoTrack id is a placeholder even with a title")
    func quirk19NoTrack() {
        #expect(TrackMetadata(trackID: TrackMetadata.noTrackID, title: "Stale").isEmptyPlaceholder)
    }

    @Test("kind comes from a genre, a Spotify id or a file extension", arguments: [
        (TrackMetadata(title: "T", genres: ["Podcast"]), MediaAsset.Kind.podcast),
        (TrackMetadata(title: "T", genres: ["Rock", "audiobooks"]), .audiobook),
        (TrackMetadata(trackID: "spotify:episode:512ojhOuo1ktJprKbVcKyQ", title: "T"), .podcast),
        (TrackMetadata(trackID: "/com/spotify/episode/512ojh", title: "T"), .podcast),
        (TrackMetadata(trackID: "spotify:track:4uLU6hMCjMI75M1A2tKUQC", title: "T"), .music),
        (TrackMetadata(title: "T", url: "file:///home/me/Videos/film.MKV"), .video),
        (TrackMetadata(title: "T", url: "https://cdn.example/clip.mp4?token=1#t=3"), .video),
        (TrackMetadata(title: "T", url: "file:///home/me/Music/a%20b.flac"), .music),
        (TrackMetadata(title: "T", url: "/home/me/Music/song.opus"), .music),
        (TrackMetadata(title: "T", url: "file:///books/novel.m4b"), .audiobook),
        (TrackMetadata(title: "T", genres: ["Podcast"], url: "file:///x.mp3"), .podcast),
    ])
    func kindWhenTold(metadata: TrackMetadata, kind: MediaAsset.Kind) {
        #expect(metadata.kind == kind)
    }

    @Test("kind is absent when the metadata does not tell — never a guess", arguments: [
        TrackMetadata(title: "T"),
        TrackMetadata(title: "T", genres: ["Rock"]),
        TrackMetadata(title: "T", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
        TrackMetadata(title: "T", url: "https://feeds.example/episode-12.mp3"),
        TrackMetadata(title: "T", url: "file:///home/me/clip.webm"),
        TrackMetadata(title: "T", url: "https://example.com"),
        TrackMetadata(title: "T", url: "file:///home/me/notes.txt"),
    ])
    func noKindWhenNotTold(metadata: TrackMetadata) {
        #expect(metadata.kind == nil)
    }

    @Test("comparing identities field by field agrees with comparing the identities")
    func sameIdentity() {
        let values = [
            TrackMetadata(title: "T"), TrackMetadata(trackID: "/t/1", title: "T"), TrackMetadata(title: "T", artists: ["A"]),
            TrackMetadata(title: "T", album: "B"), TrackMetadata(title: "T", url: "file:///t.flac"), TrackMetadata(),
            TrackMetadata(title: "T", genres: ["Rock"], length: 200_000_000), TrackMetadata(title: "U"),
        ]
        for a in values {
            for b in values { #expect(a.hasSameIdentity(as: b) == (a.identity == b.identity)) }
        }
    }

    @Test("a URL's file extension: the last path element's, lowercased, 1 to 5 letters or digits, query and fragment ignored")
    func fileExtensions() {
        let cases: [(String, String?)] = [
            ("file:///a/b.FLAC", "flac"), ("x.mp3", "mp3"), (".m4b", "m4b"), ("a.b.c.Opus", "opus"), ("/s.3gp", "3gp"),
            ("https://h/clip.mp4?token=1#t=3", "mp4"), ("https://h/clip.mp4#x.y", "mp4"), ("https://h/a.b/c?x.mkv", nil),
            ("file:///a.mp3/dir", nil), ("file:///dir.d/name", nil), ("name.", nil), ("name", nil), ("", nil), (".", nil),
            ("a.toolong", nil), ("a.abcde", "abcde"), ("a.abcdef", nil), ("a.m_4", nil), ("a.mp%33", nil),
            ("Ólafur/01.FLAC", "flac"), ("a.fläc", nil), ("?query.mp3", nil), ("#.mp3", nil), ("a.mp3?", "mp3"),
        ]
        for (url, expected) in cases {
            #expect(TrackMetadata.fileExtension(of: url) == expected, "\(url)")
        }
        #expect(TrackMetadata.isLocal("file:///x") && TrackMetadata.isLocal("/x") && !TrackMetadata.isLocal("https://x"))
    }
    @Test("quirk 14: a proxy mirroring a player (playerctld, plasma-browser-integration) gives the same identity")
    func quirk14MirrorIdentity() {
        // The browser sends its own id; the mirror re-sends the same fields under its own name.
        let browser = TrackMetadata.decode([
            TrackMetadata.Key.trackID: objectPath("/org/mpris/MediaPlayer2/firefox"),
            TrackMetadata.Key.title: .string("Song"), TrackMetadata.Key.artist: .string("Band"),
        ])
        let mirror = TrackMetadata.decode([
            TrackMetadata.Key.trackID: .string("/org/mpris/MediaPlayer2/firefox"),
            TrackMetadata.Key.title: .variant(.string("Song")), TrackMetadata.Key.artist: .strings(["Band"]),
        ])
        #expect(browser.identity == mirror.identity)
    }
}
