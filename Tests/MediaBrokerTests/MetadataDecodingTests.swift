import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

@Suite("Metadata: decoding what real players send")
struct MetadataDecodingTests {
    typealias Key = TrackMetadata.Key

    @Test("a spec-conforming map decodes every key")
    func specConformingMap() {
        let metadata = TrackMetadata.decode([
            Key.trackID: objectPath("/org/mpris/MediaPlayer2/Track/7"),
            Key.title: .string("Title"),
            Key.artist: .strings(["A", "B"]),
            Key.album: .string("Album"),
            Key.albumArtist: .strings(["Various"]),
            Key.genre: .strings(["Jazz"]),
            Key.url: .string("file:///music/t.flac"),
            Key.length: .int64(215_000_000),
        ])
        #expect(metadata == TrackMetadata(
            trackID: "/org/mpris/MediaPlayer2/Track/7", title: "Title", artists: ["A", "B"], album: "Album",
            albumArtists: ["Various"], genres: ["Jazz"], url: "file:///music/t.flac", length: 215_000_000))
        #expect(metadata.isExcluded == false)
    }

    @Test("the whole a{sv} value decodes, and anything else is empty metadata")
    func wholeValue() {
        let value = DBusValue.variant(.vardict([Key.title: .string("T")]))
        #expect(TrackMetadata.decode(value).title == "T")
        #expect(TrackMetadata.decode(.string("not a map")) == .empty)
        #expect(TrackMetadata.decode(.strings(["a"])) == .empty)
    }

    @Test("the a{sv} value reads as its vardict would: a key sent twice keeps its last value, one variant is removed, other keys are no map")
    func wholeValueAsItsVardict() throws {
        func entry(_ key: DBusValue, _ value: DBusValue) -> DBusValue.DictionaryEntry { .init(key: key, value: value) }
        let entries = [
            entry(.string(Key.title), .variant(.string("First"))),
            entry(.string("xesam:comment"), .variant(.string("ignored"))),
            entry(.string(Key.title), .variant(.string("Second"))),
            entry(.string(Key.artist), .variant(.variant(.strings(["Deep"])))),
            entry(.string(Key.length), .variant(.int64(215_000_000))),
            entry(.string(Key.exclude), .variant(.boolean(false))),
        ]
        let decoded = TrackMetadata.decode(.dictionary(key: .string, value: .variant, entries))
        #expect(decoded == TrackMetadata(title: "Second", artists: ["Deep"], length: 215_000_000))
        // Values that are not variants at all (a{sx}) are taken as they are.
        let bare = DBusValue.dictionary(key: .string, value: .int64, [entry(.string(Key.length), .int64(215_000_000))])
        #expect(TrackMetadata.decode(bare) == TrackMetadata(length: 215_000_000))
        // Object-path keys make a dictionary, though no MPRIS key is a path.
        #expect(TrackMetadata.decode(.dictionary(key: .objectPath, value: .variant, [entry(.objectPath("/xesam/title"), .variant(.string("T")))])) == .empty)
        #expect(TrackMetadata.decode(.dictionary(key: .int32, value: .variant, [entry(.int32(1), .variant(.string("T")))])) == .empty)
    }

    @Test("quirk 1: an artist sent as a plain string is one artist")
    func quirk1ArtistAsString() {
        let metadata = TrackMetadata.decode([Key.title: .string("T"), Key.artist: .string("Solo Artist")])
        #expect(metadata.artists == ["Solo Artist"])
        let genres = TrackMetadata.decode([Key.genre: .string("Podcast"), Key.albumArtist: .string("X")])
        #expect(genres.genres == ["Podcast"])
        #expect(genres.albumArtists == ["X"])
    }

    @Test("quirk 1: an array of variants holding strings is read, other elements skipped")
    func quirk1ArrayOfVariants() {
        let artists = DBusValue.array(element: .variant, [.variant(.string("A")), .variant(.int32(5)), .variant(.string("B"))])
        #expect(TrackMetadata.decode([Key.artist: artists]).artists == ["A", "B"])
    }

    @Test("quirk 1: one bad key never costs the others")
    func quirk1BadKeyKeepsTheRest() {
        let metadata = TrackMetadata.decode([
            Key.title: .string("Kept"),
            Key.artist: .int32(42),
            Key.album: .strings(["not", "a", "string"]),
            Key.length: .string("soon"),
        ])
        #expect(metadata == TrackMetadata(title: "Kept"))
    }

    @Test("quirk 2: a length sent as any integer type is read", arguments: [
        DBusValue.int64(180_000_000), .uint64(180_000_000), .int32(180_000_000), .uint32(180_000_000),
        .variant(.variant(.int64(180_000_000))),
    ])
    func quirk2IntegerLengths(value: DBusValue) {
        #expect(TrackMetadata.decode([Key.length: value]).length == 180_000_000)
    }

    @Test("quirk 2: a length sent as a double (smplayer) is read, rounded")
    func quirk2DoubleLength() {
        #expect(TrackMetadata.decode([Key.length: .double(180_000_000.4)]).length == 180_000_000)
    }

    @Test("quirk 2: a length sent as a numeric string (Amberol) is read")
    func quirk2StringLength() {
        #expect(TrackMetadata.decode([Key.length: .string("180000000")]).length == 180_000_000)
        #expect(TrackMetadata.decode([Key.length: .string(" 180000000.0 ")]).length == 180_000_000)
    }

    @Test("quirk 2: a negative length (Cantata's overflowing i) is unknown", arguments: [
        DBusValue.int32(-1_294_967_296), .int64(-1), .int64(0), .string("-5"),
    ])
    func quirk2NonPositiveLength(value: DBusValue) {
        #expect(TrackMetadata.decode([Key.length: value]).length == nil)
    }

    @Test("quirk 2: absurd lengths — beyond a week, not finite, out of range — are unknown", arguments: [
        DBusValue.int64(TrackMetadata.Limits.maximumLength + 1), .uint64(.max), .double(.infinity), .double(.nan),
        .double(1e300), .string("1e400"), .string(String(repeating: "9", count: 10_000)),
    ])
    func quirk2AbsurdLength(value: DBusValue) {
        #expect(TrackMetadata.decode([Key.length: value]).length == nil)
    }

    @Test("quirk 2: a length in milliseconds below one second is unknown, not multiplied")
    func quirk2MillisecondLength() {
        // DeaDBeeF's plugin sends 215 000 (ms) for a 3:35 track: 0.215 s as microseconds.
        #expect(TrackMetadata.decode([Key.length: .int64(215_000)]).length == nil)
        #expect(TrackMetadata.decode([Key.length: .int64(TrackMetadata.Limits.minimumLength)]).length == 1_000_000)
    }

    @Test("quirk 3: a track id sent as a string (Spotify, Chromium) is read")
    func quirk3TrackIDAsString() {
        let metadata = TrackMetadata.decode([Key.trackID: .string("spotify:track:4uLU6hMCjMI75M1A2tKUQC")])
        #expect(metadata.trackID == "spotify:track:4uLU6hMCjMI75M1A2tKUQC")
        #expect(TrackMetadata.decode([Key.trackID: objectPath("/org/chromium/MediaPlayer2/TrackList/Track1")]).trackID
            == "/org/chromium/MediaPlayer2/TrackList/Track1")
    }

    @Test("quirk 5: empty strings and [''] are absent")
    func quirk5Empties() {
        let metadata = TrackMetadata.decode([
            Key.title: .string(""), Key.artist: .strings([""]), Key.album: .string("   "),
            Key.genre: .strings(["", " "]), Key.url: .string(""), Key.trackID: .string(""),
        ])
        #expect(metadata == .empty)
        #expect(metadata.isEmptyPlaceholder)
    }

    @Test("text is trimmed, control characters become spaces, duplicates go, RTL and emoji stay")
    func textCleaning() {
        let metadata = TrackMetadata.decode([
            Key.title: .string("  \u{200F}שלום 🎵\u{1F3FD}\t\n"),
            Key.artist: .strings(["A", " A ", "B\u{1B}[31m", "B"]),
            Key.album: .string("Line one\nLine two"),
        ])
        #expect(metadata.title == "\u{200F}שלום 🎵\u{1F3FD}")
        #expect(metadata.artists == ["A", "B [31m", "B"])
        #expect(metadata.album == "Line one Line two")
    }

    @Test("mediabroker:exclude true excludes; false or absent does not")
    func excludeFlag() {
        #expect(TrackMetadata.decode([Key.title: .string("T"), Key.exclude: .boolean(true)]).isExcluded)
        #expect(!TrackMetadata.decode([Key.title: .string("T"), Key.exclude: .boolean(false)]).isExcluded)
        #expect(!TrackMetadata.decode([Key.title: .string("T")]).isExcluded)
    }

    @Test("mediabroker:exclude of another type errs towards privacy", arguments: [
        (DBusValue.int32(1), true), (.uint32(0), false), (.string("true"), true), (.string("False"), false),
        (.string("no"), false), (.string("perhaps"), true), (.strings(["x"]), true), (.double(0), true),
    ])
    func excludeFlagLenient(value: DBusValue, excluded: Bool) {
        #expect(TrackMetadata.excludeFlag(value) == excluded)
    }

    @Test("quirk 18: artUrl and other keys are ignored, so a new temporary artUrl changes nothing")
    func quirk18ArtURLIgnored() {
        let base: [String: DBusValue] = [Key.title: .string("T"), Key.artist: .strings(["A"])]
        var withArt = base
        withArt["mpris:artUrl"] = .string("file:///tmp/.org.chromium.Chromium.abc")
        var newArt = base
        newArt["mpris:artUrl"] = .string("file:///tmp/.org.chromium.Chromium.xyz")
        newArt["xesam:comment"] = .strings(["hello"])
        #expect(TrackMetadata.decode(withArt) == TrackMetadata.decode(newArt))
    }

    @Test("PlaybackStatus accepts the MPRIS words in any case and nothing else")
    func playbackStatus() {
        #expect(PlaybackStatus(mpris: .string("Playing")) == .playing)
        #expect(PlaybackStatus(mpris: .string("Paused")) == .paused)
        #expect(PlaybackStatus(mpris: .string("Stopped")) == .stopped)
        #expect(PlaybackStatus(mpris: .string("playing\u{301}")) == nil)
        #expect(PlaybackStatus(mpris: .variant(.string("paused"))) == .paused)
        #expect(PlaybackStatus(mpris: .string(" STOPPED ")) == .stopped)
        #expect(PlaybackStatus(mpris: .string("Buffering")) == nil)
        #expect(PlaybackStatus(mpris: .int32(1)) == nil)
        #expect(PlaybackStatus(mpris: .string(String(repeating: "Playing", count: 1000))) == nil)
    }

    @Test("Rate and Seeked values are read leniently")
    func rateAndSeeked() {
        #expect(PlayerEvent.rate(mpris: .double(1.5)) == .rate(1.5))
        #expect(PlayerEvent.rate(mpris: .int32(2)) == .rate(2))
        #expect(PlayerEvent.rate(mpris: .string("0.75")) == .rate(0.75))
        #expect(PlayerEvent.rate(mpris: .boolean(true)) == nil)
        #expect(PlayerEvent.seeked(mpris: .int64(5_000_000)) == .seeked(position: 5_000_000))
        #expect(PlayerEvent.seeked(mpris: .string("x")) == nil)
        #expect(PlayerEvent.playbackStatus(mpris: .string("Playing")) == .playbackStatus(.playing))
        #expect(PlayerEvent.metadata(mpris: .vardict([Key.title: .string("T")])) == .metadata(TrackMetadata(title: "T")))
    }
}
