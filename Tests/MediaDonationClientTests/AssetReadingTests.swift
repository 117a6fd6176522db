internal import CDBus
import FoundationEssentials
@testable import MediaDonationClient
@testable import SwiftDBus
import Testing

/// A page of assets (`RecentMedia`, `NowPlaying`) is read where it lies in the reply — only the
/// contract's keys become values — and must give exactly the assets that decoding the reply whole
/// and reading each `a{sv}` as a dictionary gives (``GenericMedia/init(fields:)``).
@Suite struct AssetReadingTests {
    /// A method return carrying `values`, as the client receives it (its body undecoded).
    static func reply(_ values: [DBusValue]) throws -> BusMessage {
        try Marshalling.check(values)
        let message = try #require(WireMessage.make(WireMessage.Header(kind: .methodReturn, replySerial: 3), arguments: ValueArguments(values)))
        defer { dbus_message_unref(message) }
        var names = HeaderNames()
        return try BusMessage(reading: message, names: &names, decodingArguments: false)
    }

    /// The assets as decoding the reply whole reads them.
    static func decoded(_ values: [DBusValue]) -> [GenericMedia]? {
        guard let items = try? values.first?.array() else { return nil }
        return items.compactMap { item in (try? item.vardict()).flatMap(GenericMedia.init(fields:)) }
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

    static let pages: [(String, [DBusValue])] = [
        ("a page of whole assets", [.array(element: .vardict, [.vardict(full), .vardict(with(["id": .int64(41), "title": .string("Angel")]))])]),
        ("an empty page", [.array(element: .vardict, [])]),
        ("not yet recorded: no id", [.array(element: .vardict, [.vardict(with(["id": nil]))])]),
        ("no started: skipped", [.array(element: .vardict, [.vardict(with(["started": nil])), .vardict(full)])]),
        ("keys of other types read as absent", [.array(element: .vardict, [.vardict(with([
            "title": .int32(1), "artists": .string("one"), "length": .string("long"), "id": .uint32(9), "ended": .uint64(.max),
        ]))])]),
        ("empty strings read as absent", [.array(element: .vardict, [.vardict(with(["title": .string(""), "album": .string("")]))])]),
        ("keys a newer broker adds are stepped over", [.array(element: .vardict, [.vardict(with([
            "rating": .double(0.5), "tags": .strings(["a"]), "extra": .vardict(["nested": .int32(1)]), "x": .structure([.int32(1)]),
        ]))])]),
        ("values inside extra variants", [.array(element: .vardict, [.vardict(with(["title": .variant(.string("V")), "started": .variant(.int64(5))]))])]),
        ("a key sent twice keeps its last value", [.array(element: .vardict, [.dictionary(key: .string, value: .variant, [
            .init(key: .string("started"), value: .variant(.int64(1))), .init(key: .string("title"), value: .variant(.string("First"))),
            .init(key: .string("title"), value: .variant(.string("Last"))),
        ])])]),
        ("keys near the contract's: case, prefix, longer", [.array(element: .vardict, [.vardict(with([
            "Title": .string("a"), "titl": .string("b"), "titles": .string("c"), "app_ids": .string("d"),
        ]))])]),
        ("elements that are no assets are skipped", [.array(element: .variant, [.variant(.vardict(full)), .variant(.string("x")), .variant(.int32(1))])]),
        ("object-path keys", [.array(element: Signature("a{ov}"), [.dictionary(key: .objectPath, value: .variant, [
            .init(key: .objectPath("/started"), value: .variant(.int64(1))),
        ])])]),
        ("the list inside a variant", [.variant(.array(element: .vardict, [.vardict(full)]))]),
        ("more arguments after the list", [.array(element: .vardict, [.vardict(full)]), .string("after")]),
    ]

    @Test("a page read in place gives the assets decoding it whole gives", arguments: pages.indices)
    func sameAsDecoded(_ index: Int) throws {
        let (what, values) = Self.pages[index]
        let expected = try #require(Self.decoded(values), "\(what)")
        #expect(try MediaBrokerClient.assets(in: Self.reply(values)) == expected, "\(what)")
    }

    @Test("a reply that is no list of assets is an unexpected reply", arguments: [
        [DBusValue](), [.string("no")], [.vardict(["started": .int64(1)])], [.int64(3)],
    ])
    func notAList(_ values: [DBusValue]) throws {
        #expect(Self.decoded(values) == nil)
        let reply = try Self.reply(values)
        #expect(throws: MediaBrokerError.self) { try MediaBrokerClient.assets(in: reply) }
    }

    @Test("every field of a whole asset arrives")
    func everyField() throws {
        let media = try #require(try MediaBrokerClient.assets(in: Self.reply([.array(element: .vardict, [.vardict(Self.full)])])).first)
        #expect(media.id == 42 && media.title == "Teardrop" && media.artist == "Massive Attack, Elizabeth Fraser")
        #expect(media.artists == ["Massive Attack", "Elizabeth Fraser"] && media.album == "Mezzanine")
        #expect(media.appID == "mpv" && media.appName == "mpv Media Player" && media.appIcon == "/usr/share/icons/hicolor/scalable/apps/mpv.svg")
        #expect(media.date == Date(microsecondsSinceEpoch: 1_795_982_525_000_000))
        #expect(media.ended == Date(microsecondsSinceEpoch: 1_795_982_855_000_000))
        #expect(media.listened == .microseconds(330_000_000) && media.length == .microseconds(331_000_000))
        #expect(media.kind == GenericMedia.Kind(rawValue: "music") && media.source == GenericMedia.Source(rawValue: "mpris"))
    }
}
