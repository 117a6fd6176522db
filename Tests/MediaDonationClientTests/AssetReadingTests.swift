internal import CDBus
import FoundationEssentials
@testable import MediaDonationClient
@testable import SwiftDBus
import Testing

/// A page of assets (`RecentMedia`, `NowPlaying`) is read where it lies in the reply — the
/// contract's keys become fields, others are kept as they came — leniently: what is no asset is skipped, a key of another type
/// is absent (``GenericMedia/init(reading:)``).
@Suite struct AssetReadingTests {
    /// A method return carrying `values`, as the client receives it (its body undecoded).
    static func reply(_ values: [DBusValue]) throws -> BusMessage {
        try Marshalling.check(values)
        let message = try #require(WireMessage.make(WireMessage.Header(kind: .methodReturn, replySerial: 3), arguments: ValueArguments(values)))
        defer { dbus_message_unref(message) }
        var names = HeaderNames()
        return try BusMessage(reading: message, names: &names, decodingArguments: false)
    }

    static let full: [String: DBusValue] = [
        "id": .int64(42), "title": .string("Teardrop"), "artist": .string("Massive Attack, Elizabeth Fraser"),
        "artists": .strings(["Massive Attack", "Elizabeth Fraser"]), "album": .string("Mezzanine"), "app_id": .string("mpv"),
        "app_name": .string("mpv Media Player"), "app_icon": .string("/usr/share/icons/hicolor/scalable/apps/mpv.svg"),
        "started": .int64(1_795_982_525_000_000), "ended": .int64(1_795_982_855_000_000), "listened": .int64(330_000_000),
        "length": .int64(331_000_000), "kind": .string("music"), "source": .string("mpris"),
    ]

    static func with(_ changes: [String: DBusValue?]) -> [String: DBusValue] {
        var asset = full
        for (key, value) in changes { asset[key] = value }
        return asset
    }

    /// `full` as it reads.
    static let fullMedia = GenericMedia(
        id: 42, title: "Teardrop", artist: "Massive Attack, Elizabeth Fraser", artists: ["Massive Attack", "Elizabeth Fraser"],
        album: "Mezzanine", appID: "mpv", appName: "mpv Media Player", appIcon: "/usr/share/icons/hicolor/scalable/apps/mpv.svg",
        date: Date(microsecondsSinceEpoch: 1_795_982_525_000_000), ended: Date(microsecondsSinceEpoch: 1_795_982_855_000_000),
        listened: .microseconds(330_000_000), length: .microseconds(331_000_000),
        kind: GenericMedia.Kind(rawValue: "music"), source: GenericMedia.Source(rawValue: "mpris"))

    static func fullMedia(_ change: (inout GenericMedia) -> Void) -> GenericMedia {
        var media = fullMedia
        change(&media)
        return media
    }

    static let pages: [(String, [DBusValue], [GenericMedia])] = [
        ("a page of whole assets", [.array(element: .vardict, [.vardict(full), .vardict(with(["id": .int64(41), "title": .string("Angel")]))])],
         [fullMedia, fullMedia { $0.id = 41; $0.title = "Angel" }]),
        ("an empty page", [.array(element: .vardict, [])], []),
        ("not yet recorded: no id", [.array(element: .vardict, [.vardict(with(["id": nil]))])],
         [fullMedia { $0.id = GenericMedia.notRecorded }]),
        ("no started: skipped", [.array(element: .vardict, [.vardict(with(["started": nil])), .vardict(full)])], [fullMedia]),
        ("keys of other types read as absent", [.array(element: .vardict, [.vardict(with([
            "title": .int32(1), "artists": .string("one"), "length": .string("long"), "id": .uint32(9), "ended": .uint64(.max),
        ]))])], [fullMedia { $0.title = nil; $0.artists = []; $0.length = nil; $0.id = 9; $0.ended = nil }]),
        ("empty strings read as absent", [.array(element: .vardict, [.vardict(with(["title": .string(""), "album": .string("")]))])],
         [fullMedia { $0.title = nil; $0.album = nil }]),
        ("keys a newer broker adds are kept as they came", [.array(element: .vardict, [.vardict(with([
            "rating": .double(0.5), "tags": .strings(["a"]), "extra": .vardict(["nested": .int32(1)]), "x": .structure([.int32(1)]),
            "count": .uint32(3), "flag": .boolean(true),
        ]))])], [fullMedia { $0.otherFields = [
            "rating": .number(0.5), "tags": .texts(["a"]), "extra": .unsupported(signature: "a{sv}"),
            "x": .unsupported(signature: "(i)"), "count": .integer(3), "flag": .boolean(true),
        ] }]),
        ("the art and the summary", [.array(element: .vardict, [.vardict(with([
            "artwork": .string("/home/u/.local/share/media-broker/artwork/ab.png"), "artwork_url": .string("https://i.scdn.co/image/x"),
            "summary": .string("Teardrop — Massive Attack · Mezzanine"),
        ]))])], [fullMedia {
            $0.artwork = "/home/u/.local/share/media-broker/artwork/ab.png"
            $0.artworkURL = "https://i.scdn.co/image/x"
            $0.summary = "Teardrop — Massive Attack · Mezzanine"
        }]),
        ("values inside extra variants", [.array(element: .vardict, [.vardict(with(["title": .variant(.string("V")), "started": .variant(.int64(5))]))])],
         [fullMedia { $0.title = "V"; $0.date = Date(microsecondsSinceEpoch: 5) }]),
        ("a key sent twice keeps its last value", [.array(element: .vardict, [.dictionary(key: .string, value: .variant, [
            .init(key: .string("started"), value: .variant(.int64(1))), .init(key: .string("title"), value: .variant(.string("First"))),
            .init(key: .string("title"), value: .variant(.string("Last"))),
        ])])], [GenericMedia(id: GenericMedia.notRecorded, title: "Last", date: Date(microsecondsSinceEpoch: 1))]),
        ("keys near the contract's are other keys: case, prefix, longer", [.array(element: .vardict, [.vardict(with([
            "Title": .string("a"), "titl": .string("b"), "titles": .string("c"), "app_ids": .string("d"),
        ]))])], [fullMedia { $0.otherFields = ["Title": .text("a"), "titl": .text("b"), "titles": .text("c"), "app_ids": .text("d")] }]),
        ("elements that are no assets are skipped",
         [.array(element: .variant, [.variant(.vardict(full)), .variant(.string("x")), .variant(.int32(1))])], [fullMedia]),
        ("object-path keys", [.array(element: Signature("a{ov}"), [.dictionary(key: .objectPath, value: .variant, [
            .init(key: .objectPath("/started"), value: .variant(.int64(1))),
        ])])], []),
        ("the list inside a variant", [.variant(.array(element: .vardict, [.vardict(full)]))], [fullMedia]),
        ("more arguments after the list", [.array(element: .vardict, [.vardict(full)]), .string("after")], [fullMedia]),
    ]

    @Test("a page reads as the assets the contract means", arguments: pages.indices)
    func pageShapes(_ index: Int) throws {
        let (what, values, expected) = Self.pages[index]
        #expect(try MediaBrokerClient.assets(in: Self.reply(values)) == expected, "\(what)")
    }

    @Test("a reply that is no list of assets is an unexpected reply", arguments: [
        [DBusValue](), [.string("no")], [.vardict(["started": .int64(1)])], [.int64(3)],
    ])
    func notAList(_ values: [DBusValue]) throws {
        let reply = try Self.reply(values)
        #expect(throws: MediaBrokerError.self) { try MediaBrokerClient.assets(in: reply) }
    }
}
