@testable import MediaBroker
import SwiftDBus
import Testing
@testable import BrokerCore
import CoreFixtures

/// A player's `PropertiesChanged` is read where it lies in its body — of `Metadata` only the keys
/// the broker uses, then `PlaybackStatus` and `Rate` — for every shape real players send
/// (mpris-quirks.md) and for hostile ones. A `GetAll` reply's properties are read the same way
/// (``PlayerProperties/init(_:)``).
@Suite("PropertiesChanged: read in place")
struct PropertiesChangedReadingTests {
    typealias Key = TrackMetadata.Key

    /// The body of a `PropertiesChanged` signal carrying `values`, as the broker receives it.
    static func body(_ values: [DBusValue]) throws -> MessageBody {
        try MessageBody(values)
    }

    static let player = "org.mpris.MediaPlayer2.Player"

    static func signal(_ changed: [String: DBusValue], invalidated: [String] = [], interface: String = player) -> [DBusValue] {
        [.string(interface), .vardict(changed), .strings(invalidated)]
    }

    static let typical: [String: DBusValue] = [
        Key.trackID: .objectPath("/org/mpris/MediaPlayer2/Track/7"), Key.title: .string("Teardrop"),
        Key.artist: .strings(["Massive Attack", "Elizabeth Fraser"]), Key.album: .string("Mezzanine"),
        Key.url: .string("file:///music/teardrop.flac"), "mpris:artUrl": .string("file:///covers/1.jpg"),
        Key.length: .int64(330_000_000), "xesam:trackNumber": .int32(3), Key.genre: .strings(["Trip hop"]),
        Key.albumArtist: .strings(["Massive Attack"]), "xesam:contentCreated": .string("1998-04-20"),
    ]

    /// What a signal must read as.
    struct Read {
        var interface = PropertiesChangedReadingTests.player
        var metadata: TrackMetadata?
        var status: PlayerProperties.Reported<PlaybackStatus>?
        var rate: PlayerProperties.Reported<Double>?
        var invalidated: [String] = []
    }

    static let typicalRead = TrackMetadata(
        trackID: "/org/mpris/MediaPlayer2/Track/7", title: "Teardrop", artists: ["Massive Attack", "Elizabeth Fraser"],
        album: "Mezzanine", albumArtists: ["Massive Attack"], genres: ["Trip hop"], url: "file:///music/teardrop.flac",
        length: 330_000_000)

    static let signals: [(String, [DBusValue], Read)] = [
        ("a typical track change", signal(["Metadata": .vardict(typical), "PlaybackStatus": .string("Playing")]),
         Read(metadata: typicalRead, status: .value(.playing))),
        ("status only", signal(["PlaybackStatus": .string("Paused")]), Read(status: .value(.paused))),
        ("rate and invalidated names", signal(["Rate": .double(1.5)], invalidated: ["Metadata", "PlaybackStatus"]),
         Read(rate: .value(1.5), invalidated: ["Metadata", "PlaybackStatus"])),
        ("quirk 1: an artist as a plain string, variants in the list",
         signal(["Metadata": .vardict([Key.title: .string("T"), Key.artist: .string("Solo"),
                                       Key.albumArtist: .array(element: .variant, [.variant(.string("A")), .variant(.int32(1))])])]),
         Read(metadata: TrackMetadata(title: "T", artists: ["Solo"], albumArtists: ["A"]))),
        ("quirk 2: a length as uint64", signal(["Metadata": .vardict([Key.title: .string("T"), Key.length: .uint64(200_000_000)])]),
         Read(metadata: TrackMetadata(title: "T", length: 200_000_000))),
        ("quirk 2: a length as a double", signal(["Metadata": .vardict([Key.length: .double(2.5e8)])]),
         Read(metadata: TrackMetadata(length: 250_000_000))),
        ("quirk 2: a length as a string", signal(["Metadata": .vardict([Key.length: .string(" 240000000 ")])]),
         Read(metadata: TrackMetadata(length: 240_000_000))),
        ("quirk 2: a length of zero", signal(["Metadata": .vardict([Key.title: .string("T"), Key.length: .int64(0)])]),
         Read(metadata: TrackMetadata(title: "T"))),
        ("quirk 3: a track id as a string", signal(["Metadata": .vardict([Key.trackID: .string("spotify:track:1")])]),
         Read(metadata: TrackMetadata(trackID: "spotify:track:1"))),
        ("quirk 5: empties", signal(["Metadata": .vardict([Key.title: .string(""), Key.artist: .strings([""])])]), Read(metadata: .empty)),
        ("Metadata inside extra variants", signal(["Metadata": .variant(.variant(.vardict([Key.title: .string("Deep")])))]),
         Read(metadata: TrackMetadata(title: "Deep"))),
        ("a key's value inside extra variants", signal(["Metadata": .vardict([Key.title: .variant(.variant(.string("V")))])]),
         Read(metadata: TrackMetadata(title: "V"))),
        ("Metadata that is not a dictionary", signal(["Metadata": .string("nonsense")]), Read(metadata: .empty)),
        ("Metadata keyed by object paths",
         signal(["Metadata": .dictionary(key: .objectPath, value: .variant, [.init(key: .objectPath("/x"), value: .variant(.string("y")))])]),
         Read(metadata: .empty)),
        ("Metadata as a{ss}",
         signal(["Metadata": .dictionary(key: .string, value: .string, [.init(key: .string(Key.title), value: .string("Plain"))])]),
         Read(metadata: TrackMetadata(title: "Plain"))),
        ("a key sent twice keeps its last value",
         signal(["Metadata": .dictionary(key: .string, value: .variant, [
             .init(key: .string(Key.title), value: .variant(.string("First"))),
             .init(key: .string(Key.title), value: .variant(.string("Last"))),
         ])]),
         Read(metadata: TrackMetadata(title: "Last"))),
        ("an excluded item", signal(["Metadata": .vardict([Key.title: .string("Ad"), Key.exclude: .boolean(true)])]),
         Read(metadata: TrackMetadata(title: "Ad", isExcluded: true))),
        ("an exclusion as a string", signal(["Metadata": .vardict([Key.title: .string("Ad"), Key.exclude: .string("no")])]),
         Read(metadata: TrackMetadata(title: "Ad"))),
        ("only keys the broker does not read", signal(["Metadata": .vardict(["mpris:artUrl": .string("x"), "xesam:comment": .strings(["c"])])]),
         Read(metadata: .empty)),
        ("keys near the read ones: other case, prefix, longer",
         signal(["Metadata": .vardict(["xesam:Title": .string("a"), "xesam:titl": .string("b"), "xesam:titles": .string("c"),
                                       "xesam:albumArtists": .strings(["d"])])]),
         Read(metadata: .empty)),
        ("another interface", signal(["CanGoNext": .boolean(true)], interface: "org.mpris.MediaPlayer2.TrackList"),
         Read(interface: "org.mpris.MediaPlayer2.TrackList")),
        ("vendor properties beside", signal(["Shuffle": .boolean(true), "Volume": .double(0.5), "Metadata": .vardict(typical)]),
         Read(metadata: typicalRead)),
        ("a status of the wrong type and a rate as text", signal(["PlaybackStatus": .int32(1), "Rate": .string("2")]),
         Read(status: .unreadable, rate: .value(2))),
        ("the interface as an object path",
         [.objectPath("/org/mpris/MediaPlayer2/Player"), .vardict(["PlaybackStatus": .string("Playing")]), .strings([])],
         Read(interface: "/org/mpris/MediaPlayer2/Player")),
        ("changed properties that are not a{sv}", [.string("org.mpris.MediaPlayer2.Player"), .strings(["x"]), .strings([])], Read()),
        ("Metadata twice, the second no dictionary",
         [.string(player), .dictionary(key: .string, value: .variant, [
             .init(key: .string("Metadata"), value: .variant(.vardict([Key.title: .string("First")]))),
             .init(key: .string("Metadata"), value: .variant(.int32(7))),
         ]), .strings([])],
         Read(metadata: .empty)),
        ("changed properties inside a variant", [.string(player), .variant(.vardict(["Rate": .double(2)])), .strings([])],
         Read(rate: .value(2))),
        ("changed properties keyed by object paths",
         [.string(player), .dictionary(key: .objectPath, value: .variant, [.init(key: .objectPath("/Rate"), value: .variant(.double(2)))]),
          .strings([])],
         Read()),
        ("another interface's Metadata is not read",
         signal(["Metadata": .vardict(typical)], interface: "org.mpris.MediaPlayer2.TrackList"),
         Read(interface: "org.mpris.MediaPlayer2.TrackList")),
        ("invalidated names that are not strings",
         [.string("org.mpris.MediaPlayer2.Player"), .vardict(["Rate": .double(1)]), .array(element: .int32, [.int32(1)])],
         Read(rate: .value(1))),
    ]

    @Test("every shape reads as the broker means it", arguments: signals.indices)
    func shapes(_ index: Int) throws {
        let (what, values, expected) = Self.signals[index]
        let signal = try #require(PropertiesChangedSignal(try Self.body(values), readingPropertiesOf: Self.player), "\(what)")
        #expect(signal.interface == expected.interface, "\(what)")
        #expect(signal.invalidated == expected.invalidated, "\(what)")
        #expect(signal.changed.metadata == expected.metadata, "\(what)")
        #expect(signal.changed.playbackStatus == expected.status, "\(what)")
        #expect(signal.changed.rate == expected.rate, "\(what)")
    }

    @Test("a GetAll reply's properties are read as a signal's, with Position besides")
    func getAll() throws {
        let read = PlayerProperties([
            "Metadata": .vardict(Self.typical), "PlaybackStatus": .string("Playing"), "Rate": .variant(.double(1.5)),
            "Position": .int64(7), "Volume": .double(0.5),
        ])
        #expect(read.metadata == Self.typicalRead)
        #expect(read.playbackStatus == .value(.playing))
        #expect(read.rate == .value(1.5))
        #expect(read.position == 7)
        let none = PlayerProperties(["Metadata": .int32(3)])
        #expect(none.metadata == .empty && none.playbackStatus == nil && none.rate == nil && none.position == nil)
        // A signal's Position is not taken: it never signals.
        let signal = PropertiesChangedSignal(try Self.body(Self.signal(["Position": .int64(7)])), readingPropertiesOf: Self.player)
        #expect(signal?.changed.position == nil)
    }

    @Test("a change to a key the broker does not read is no change of metadata; a read one is")
    func unreadKeysDoNotCount() throws {
        func metadata(_ map: [String: DBusValue]) throws -> TrackMetadata? {
            try #require(PropertiesChangedSignal(Self.body(Self.signal(["Metadata": .vardict(map)])), readingPropertiesOf: Self.player)).changed.metadata
        }
        var newCover = Self.typical
        newCover["mpris:artUrl"] = .string("file:///covers/2.jpg")
        var newTitle = Self.typical
        newTitle[Key.title] = .string("Angel")
        #expect(try metadata(Self.typical) == metadata(newCover))
        #expect(try metadata(Self.typical) != metadata(newTitle))
    }

    @Test("anything but three arguments, the first a string, is no PropertiesChanged", arguments: [
        [DBusValue.string("org.mpris.MediaPlayer2.Player"), .vardict([:])],
        [.string("org.mpris.MediaPlayer2.Player"), .vardict([:]), .strings([]), .strings([])],
        [.int32(1), .vardict([:]), .strings([])],
        [],
    ])
    func otherSignatures(_ values: [DBusValue]) throws {
        #expect(PropertiesChangedSignal(try Self.body(values), readingPropertiesOf: Self.player) == nil)
    }

    @Test("the keys matched as static text are TrackMetadata.Key's and the property names, and only those")
    func staticNamesAgree() throws {
        let read: [String: TrackMetadata] = [
            Key.trackID: TrackMetadata(trackID: "v"), Key.length: TrackMetadata(length: 200_000_000),
            Key.title: TrackMetadata(title: "v"), Key.artist: TrackMetadata(artists: ["v"]), Key.album: TrackMetadata(album: "v"),
            Key.albumArtist: TrackMetadata(albumArtists: ["v"]), Key.genre: TrackMetadata(genres: ["v"]),
            Key.url: TrackMetadata(url: "v"), Key.exclude: TrackMetadata(isExcluded: true),
        ]
        let unread = ["xesam:comment", "xesam:trackNumber", "xesam:Title", "xesam:urls", "mpris:trackId", ""]
        // Each key alone, with a value every slot reads, fills its own field; any other key none.
        for key in Array(read.keys) + unread {
            let value: DBusValue = key == Key.length ? .int64(200_000_000) : key == Key.exclude ? .boolean(true) : .string("v")
            let signal = try #require(PropertiesChangedSignal(Self.body(Self.signal(["Metadata": .vardict([key: value])])), readingPropertiesOf: Self.player))
            #expect(signal.changed.metadata == read[key, default: .empty], "\(key)")
            // `mpris:artUrl` is read, but is no part of equality: it fills only itself.
            #expect(signal.changed.metadata?.artURL == nil, "\(key)")
        }
        let art = try #require(PropertiesChangedSignal(Self.body(Self.signal(["Metadata": .vardict([Key.artURL: .string("file:///a.png")])])),
                                                       readingPropertiesOf: Self.player))
        #expect(art.changed.metadata?.artURL == "file:///a.png" && art.changed.metadata == .empty)
        let named = try #require(PropertiesChangedSignal(Self.body(Self.signal([
            PlayerProperties.metadataName: .vardict([Key.title: .string("T")]),
            PlayerProperties.playbackStatusName: .string("Playing"), PlayerProperties.rateName: .double(2),
        ])), readingPropertiesOf: Self.player))
        #expect(named.changed.metadata?.title == "T")
        #expect(named.changed.playbackStatus == .value(.playing))
        #expect(named.changed.rate == .value(2))
    }
}
