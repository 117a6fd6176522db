import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

/// Issue 6 §2 and quirk 6: whatever a player sends, decoding is bounded and never fails.
@Suite("Metadata: hostile input")
struct MetadataHostileTests {
    typealias Key = TrackMetadata.Key
    typealias Limits = TrackMetadata.Limits

    @Test("quirk 6: a 1 MB title is cut to the limit at a character boundary")
    func oneMegabyteTitle() {
        // "👩🏽‍💻" is one Character of 15 UTF-8 bytes: 1024 is not a multiple, so a byte cut would split it.
        let huge = String(repeating: "👩🏽‍💻", count: 1_048_576 / 15 + 1)
        let title = TrackMetadata.decode([Key.title: .string(huge)]).title
        #expect(title != nil)
        #expect(title!.utf8.count <= Limits.maximumTextBytes)
        #expect(title!.utf8.count == (Limits.maximumTextBytes / 15) * 15)
        #expect(title!.allSatisfy { $0 == "👩🏽‍💻" })
    }

    @Test("quirk 6: a 1 MB ASCII album is cut to exactly the limit")
    func oneMegabyteASCII() {
        let album = TrackMetadata.decode([Key.album: .string(String(repeating: "a", count: 1 << 20))]).album
        #expect(album?.utf8.count == Limits.maximumTextBytes)
    }

    @Test("quirk 6: a 1 MB run of whitespace is absent")
    func megabyteOfWhitespace() {
        #expect(TrackMetadata.decode([Key.title: .string(String(repeating: " \n", count: 1 << 19))]).title == nil)
    }

    @Test("a single character larger than the whole limit is dropped, not split")
    func zalgoCharacter() {
        let zalgo = "Z" + String(repeating: "\u{0301}", count: 2_000) + " tail"
        let title = TrackMetadata.decode([Key.title: .string(zalgo)]).title
        #expect(title == nil)
    }

    @Test("quirk 6: 10,000 artists are bounded to the first 64")
    func tenThousandArtists() {
        let artists = (0..<10_000).map { "Artist \($0)" }
        let metadata = TrackMetadata.decode([Key.artist: .strings(artists), Key.genre: .strings(artists)])
        #expect(metadata.artists == Array(artists.prefix(Limits.maximumArtists)))
        #expect(metadata.genres.count == Limits.maximumGenres)
    }

    @Test("thousands of copies of one artist: only the first 256 items are looked at")
    func copiesOfOneArtist() {
        // 4,000 copies of a 600-byte artist once took 148 ms to clean; the list is cut at 4 × 64.
        let copy = String(repeating: "Ω", count: 300)
        let examined = Limits.maximumArtists * TrackMetadata.examinedPerKept
        let artists = Array(repeating: copy, count: 4_000) + ["Late"]
        #expect(TrackMetadata.decode([Key.artist: .strings(artists)]).artists == [copy])
        // A distinct artist still counts while it lies within the examined items.
        let justInside = Array(repeating: copy, count: examined - 1) + ["Inside", "Outside"]
        #expect(TrackMetadata.decode([Key.artist: .strings(justInside)]).artists == [copy, "Inside"])
    }

    @Test("quirk 6: every artist is bounded too")
    func hugeArtists() {
        let metadata = TrackMetadata.decode([Key.artist: .strings([String(repeating: "é", count: 100_000), "B"])])
        #expect(metadata.artists.count == 2)
        #expect(metadata.artists[0].utf8.count == Limits.maximumTextBytes)
    }

    @Test("an over-long URL is absent rather than cut")
    func hugeURL() {
        let url = "https://example.org/" + String(repeating: "x", count: Limits.maximumURLBytes) + ".mp4"
        let metadata = TrackMetadata.decode([Key.url: .string(url), Key.title: .string("T")])
        #expect(metadata.url == nil)
        #expect(metadata.title == "T")
    }

    @Test("variants nested as deep as a message carries them are read; a value no message carries is empty")
    func deepVariants() {
        func nested(_ value: DBusValue, _ depth: Int) -> DBusValue {
            (0..<depth).reduce(value) { inner, _ in .variant(inner) }
        }
        let metadata = TrackMetadata.decode([
            Key.title: nested(.string("Deep"), 61),
            Key.artist: nested(.array(element: .variant, [nested(.string("A"), 29)]), 29),
            Key.length: nested(.int64(100 * second), 61),
            Key.exclude: nested(.boolean(false), 61),
        ])
        #expect(metadata == TrackMetadata(title: "Deep", artists: ["A"], length: 100 * second))
        #expect(TrackMetadata.decode(nested(.vardict([Key.title: .string("T")]), 61)).title == "T")
        #expect(TrackMetadata.decode(nested(.vardict([Key.title: .string("T")]), 62)) == .empty)
    }

    /// Values of every shape, for a wrong type in each key.
    static let wrongValues: [DBusValue] = [
        .byte(1), .boolean(true), .int16(-1), .uint16(1), .int32(-7), .uint32(7), .int64(.min), .uint64(.max),
        .double(.nan), .double(-.infinity), .signature(.string),
        .array(element: .int32, [.int32(1)]), .array(element: .string, []),
        .dictionary(key: .string, value: .variant, [.init(key: .string("k"), value: .variant(.string("v")))]),
        .structure([.string("a"), .int32(1)]), .variant(.structure([.boolean(true)])),
    ]

    @Test("a wrong type in any key never throws and keeps every other key", arguments: [
        Key.trackID, Key.title, Key.artist, Key.album, Key.albumArtist, Key.genre, Key.url, Key.length,
    ])
    func wrongTypeInEveryKey(key: String) {
        let good: [String: DBusValue] = [
            Key.trackID: objectPath("/t/1"), Key.title: .string("Title"), Key.artist: .strings(["A"]),
            Key.album: .string("Album"), Key.albumArtist: .strings(["AA"]), Key.genre: .strings(["G"]),
            Key.url: .string("file:///a.flac"), Key.length: .int64(100 * second),
        ]
        for wrong in Self.wrongValues {
            var map = good
            map[key] = wrong
            let decoded = TrackMetadata.decode(map)
            // Every other key survives (a signature `g` is text, so a text key may read it).
            if key != Key.title { #expect(decoded.title == "Title") }
            if key != Key.artist { #expect(decoded.artists == ["A"]) }
            if key != Key.length { #expect(decoded.length == 100 * second) }
            if key != Key.url { #expect(decoded.url == "file:///a.flac") }
            if key != Key.album { #expect(decoded.album == "Album") }
            if key != Key.trackID { #expect(decoded.trackID == "/t/1") }
            if key != Key.genre { #expect(decoded.genres == ["G"]) }
        }
    }

    @Test("a map of nothing but wrong types decodes to empty metadata")
    func everythingWrong() {
        var map: [String: DBusValue] = [:]
        for (index, key) in [Key.trackID, Key.title, Key.artist, Key.album, Key.url, Key.length].enumerated() {
            map[key] = .structure([.int32(Int32(index))])
        }
        #expect(TrackMetadata.decode(map) == .empty)
    }

    @Test("the memberwise initialiser bounds exactly as decoding does")
    func initialiserBounds() {
        let metadata = TrackMetadata(
            title: String(repeating: "t", count: 5_000), artists: (0..<500).map(String.init), length: -5)
        #expect(metadata.title?.utf8.count == Limits.maximumTextBytes)
        #expect(metadata.artists.count == Limits.maximumArtists)
        #expect(metadata.length == nil)
    }
}
