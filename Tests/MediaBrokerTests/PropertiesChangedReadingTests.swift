@testable import MediaBroker
@testable import SwiftDBus
import Testing

/// A player's `PropertiesChanged` is read where it lies in its body — of `Metadata` only the keys
/// the broker uses, then `PlaybackStatus` and `Rate` — and must give exactly what decoding the
/// arguments whole gives (``PlayerProperties/init(_:)`` over `vardict()`, the `GetAll` path), for
/// every shape real players send (mpris-quirks.md) and for hostile ones.
@Suite("PropertiesChanged: read in place as the decoded arguments read")
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

    static let signals: [(String, [DBusValue])] = [
        ("a typical track change", signal(["Metadata": .vardict(typical), "PlaybackStatus": .string("Playing")])),
        ("status only", signal(["PlaybackStatus": .string("Paused")])),
        ("rate and invalidated names", signal(["Rate": .double(1.5)], invalidated: ["Metadata", "PlaybackStatus"])),
        ("quirk 1: an artist as a plain string, variants in the list",
         signal(["Metadata": .vardict([Key.title: .string("T"), Key.artist: .string("Solo"),
                                       Key.albumArtist: .array(element: .variant, [.variant(.string("A")), .variant(.int32(1))])])])),
        ("quirk 2: a length as uint64", signal(["Metadata": .vardict([Key.title: .string("T"), Key.length: .uint64(200_000_000)])])),
        ("quirk 2: a length as a double", signal(["Metadata": .vardict([Key.length: .double(2.5e8)])])),
        ("quirk 2: a length as a string", signal(["Metadata": .vardict([Key.length: .string(" 240000000 ")])])),
        ("quirk 2: a length of zero", signal(["Metadata": .vardict([Key.title: .string("T"), Key.length: .int64(0)])])),
        ("quirk 3: a track id as a string", signal(["Metadata": .vardict([Key.trackID: .string("spotify:track:1")])])),
        ("quirk 5: empties", signal(["Metadata": .vardict([Key.title: .string(""), Key.artist: .strings([""])])])),
        ("Metadata inside extra variants", signal(["Metadata": .variant(.variant(.vardict([Key.title: .string("Deep")])))])),
        ("a key's value inside extra variants", signal(["Metadata": .vardict([Key.title: .variant(.variant(.string("V")))])])),
        ("Metadata that is not a dictionary", signal(["Metadata": .string("nonsense")])),
        ("Metadata keyed by object paths",
         signal(["Metadata": .dictionary(key: .objectPath, value: .variant, [.init(key: .objectPath("/x"), value: .variant(.string("y")))])])),
        ("Metadata as a{ss}",
         signal(["Metadata": .dictionary(key: .string, value: .string, [.init(key: .string(Key.title), value: .string("Plain"))])])),
        ("a key sent twice keeps its last value",
         signal(["Metadata": .dictionary(key: .string, value: .variant, [
             .init(key: .string(Key.title), value: .variant(.string("First"))),
             .init(key: .string(Key.title), value: .variant(.string("Last"))),
         ])])),
        ("an excluded item", signal(["Metadata": .vardict([Key.title: .string("Ad"), Key.exclude: .boolean(true)])])),
        ("an exclusion as a string", signal(["Metadata": .vardict([Key.title: .string("Ad"), Key.exclude: .string("no")])])),
        ("only keys the broker does not read", signal(["Metadata": .vardict(["mpris:artUrl": .string("x"), "xesam:comment": .strings(["c"])])])),
        ("keys near the read ones: other case, prefix, longer",
         signal(["Metadata": .vardict(["xesam:Title": .string("a"), "xesam:titl": .string("b"), "xesam:titles": .string("c"),
                                       "xesam:albumArtists": .strings(["d"])])])),
        ("another interface", signal(["CanGoNext": .boolean(true)], interface: "org.mpris.MediaPlayer2.TrackList")),
        ("vendor properties beside", signal(["Shuffle": .boolean(true), "Volume": .double(0.5), "Metadata": .vardict(typical)])),
        ("a status of the wrong type and a rate as text", signal(["PlaybackStatus": .int32(1), "Rate": .string("2")])),
        ("the interface as an object path",
         [.objectPath("/org/mpris/MediaPlayer2/Player"), .vardict(["PlaybackStatus": .string("Playing")]), .strings([])]),
        ("changed properties that are not a{sv}", [.string("org.mpris.MediaPlayer2.Player"), .strings(["x"]), .strings([])]),
        ("Metadata twice, the second no dictionary",
         [.string(player), .dictionary(key: .string, value: .variant, [
             .init(key: .string("Metadata"), value: .variant(.vardict([Key.title: .string("First")]))),
             .init(key: .string("Metadata"), value: .variant(.int32(7))),
         ]), .strings([])]),
        ("changed properties inside a variant", [.string(player), .variant(.vardict(["Rate": .double(2)])), .strings([])]),
        ("changed properties keyed by object paths",
         [.string(player), .dictionary(key: .objectPath, value: .variant, [.init(key: .objectPath("/Rate"), value: .variant(.double(2)))]),
          .strings([])]),
        ("another interface's Metadata is not read",
         signal(["Metadata": .vardict(typical)], interface: "org.mpris.MediaPlayer2.TrackList")),
        ("invalidated names that are not strings",
         [.string("org.mpris.MediaPlayer2.Player"), .vardict(["Rate": .double(1)]), .array(element: .int32, [.int32(1)])]),
    ]

    @Test("every shape read in place gives what the arguments decoded whole give", arguments: signals.indices)
    func sameAsDecoded(_ index: Int) throws {
        let (what, values) = Self.signals[index]
        let body = try Self.body(values)
        let decoded = try body.values()
        let signal = try #require(PropertiesChangedSignal(body, readingPropertiesOf: Self.player), "\(what)")
        // Only the Player interface's properties are read; another interface's change nothing.
        let isPlayer = (try? decoded[0].string()) == Self.player
        let whole = PlayerProperties(isPlayer ? (try? decoded[1].vardict()) ?? [:] : [:])
        #expect(signal.interface == (try decoded[0].string()), "\(what)")
        #expect(signal.invalidated == ((try? decoded[2].strings()) ?? []), "\(what)")
        #expect(signal.changed.metadata == whole.metadata, "\(what)")
        #expect(signal.changed.playbackStatus == whole.playbackStatus, "\(what)")
        #expect(signal.changed.rate == whole.rate, "\(what)")
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
        let keys = [Key.trackID, Key.length, Key.title, Key.artist, Key.album, Key.albumArtist, Key.genre, Key.url, Key.exclude]
        let unread = ["mpris:artUrl", "xesam:comment", "xesam:trackNumber", "xesam:Title", "xesam:urls", "mpris:trackId", ""]
        // Each key alone, with a value every slot reads: the in-place slot and the String one agree.
        for key in keys + unread {
            let value: DBusValue = key == Key.length ? .int64(200_000_000) : key == Key.exclude ? .boolean(true) : .string("v")
            let signal = try #require(PropertiesChangedSignal(Self.body(Self.signal(["Metadata": .vardict([key: value])])), readingPropertiesOf: Self.player))
            #expect(signal.changed.metadata == TrackMetadata.decode([key: value]), "\(key)")
            #expect((signal.changed.metadata != .empty) == keys.contains(key), "\(key)")
        }
        let named = try #require(PropertiesChangedSignal(Self.body(Self.signal([
            PlayerProperties.metadataName: .vardict([Key.title: .string("T")]),
            PlayerProperties.playbackStatusName: .string("Playing"), PlayerProperties.rateName: .double(2),
        ])), readingPropertiesOf: Self.player))
        #expect(named.changed.metadata?.title == "T")
        #expect(named.changed.playbackStatus == .string("Playing"))
        #expect(named.changed.rate == .double(2))
    }
}
