import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore

/// Issue 6 §6: no reply can exceed what the bus carries. `RecentMedia` answers at most 1000 assets;
/// each is bounded by `MediaAsset.bounded`, so the largest page is computed here from the largest
/// asset a hostile player or client can make, and compared with dbus-daemon's default
/// `max_message_size` (32 MiB; the session bus configuration raises it, the system's does not).
@Suite("Hostile input: reply sizes")
struct HostileReplySizeTests {
    static let busMessageLimit = 32 << 20
    /// Room for the message header: fields, sender and destination names, signature.
    static let headerAllowance = 4096

    /// An upper bound of `value`'s size in the D-Bus wire format: every value is charged its
    /// largest alignment padding (7 bytes), strings their length word and NUL, variants their
    /// signature.
    static func wireBound(_ value: DBusValue) -> Int {
        switch value {
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double: return 8 + 7
        case .string(let text): return 4 + 3 + text.utf8.count + 1
        case .objectPath(let path): return 4 + 3 + path.rawValue.utf8.count + 1
        case .signature(let signature): return 1 + signature.rawValue.utf8.count + 1
        case .array(_, let items): return 4 + 3 + 7 + items.reduce(0) { $0 + wireBound($1) }
        case .dictionary(_, _, let entries): return 4 + 3 + 7 + entries.reduce(0) { $0 + 7 + wireBound($1.key) + wireBound($1.value) }
        case .structure(let fields): return 7 + fields.reduce(0) { $0 + wireBound($1) }
        case .variant(let inner): return 1 + inner.signature.rawValue.utf8.count + 1 + wireBound(inner)
        }
    }

    /// The largest text each field may hold: 4-byte characters up to the byte limit.
    static func longest(_ bytes: Int) -> String { String(repeating: "\u{1F3B5}", count: bytes / 4 + 10) }

    /// The biggest donation a client can make: every text at and past its limit, 10,000 artists.
    static var hugeDonation: [String: DBusValue] {
        [
            "app_id": .string(String(repeating: "a", count: BrokerContract.maximumAppIDLength)),
            "title": .string(longest(1 << 20)), "album": .string(longest(1 << 20)),
            "app_name": .string(longest(1 << 20)), "app_icon": .string("/" + longest(1 << 20)),
            "artists": .strings((0..<10_000).map { "\($0) " + longest(2048) }),
            "kind": .string("audiobook"), "started": .int64(1), "ended": .int64(.max), "listened": .int64(.max),
            "length": .int64(.max),
        ]
    }

    @Test("the largest asset a client can donate is under 16 KB on the wire, so 1000 of them fit a bus message")
    func largestDonation() throws {
        let asset = try #require(try MediaAsset(donation: Self.hugeDonation, now: 2).bounded)
        var stored = asset
        stored.id = .max
        let size = Self.wireBound(stored.fields)
        #expect(size < 16 << 10, "one asset is \(size) bytes")
        #expect(BrokerContract.maximumLimit * size + Self.headerAllowance < Self.busMessageLimit,
                "a full page would be \(BrokerContract.maximumLimit * size) bytes")
    }

    @Test("the largest asset a player can make — 64 artists of 1 KB, a 1 MB app name — is bounded the same way")
    func largestListen() throws {
        let metadata = TrackMetadata.decode([
            TrackMetadata.Key.title: .string(Self.longest(1 << 20)), TrackMetadata.Key.album: .string(Self.longest(1 << 20)),
            TrackMetadata.Key.artist: .strings((0..<10_000).map { "\($0) " + Self.longest(2048) }),
            TrackMetadata.Key.length: .int64(3_600_000_000),
        ])
        #expect(metadata.artists.count == TrackMetadata.Limits.maximumArtists)
        let listen = Listen(key: "k", metadata: metadata, started: 1, ended: .max, listened: .max)
        let raw = try #require(listen.asset(appID: String(repeating: "p", count: 255), appName: Self.longest(1 << 20), appIcon: nil))
        #expect(Self.wireBound(raw.fields) > 100_000, "unbounded, one asset is over 100 KB: the bound is what keeps pages small")
        let asset = try #require(raw.bounded)
        #expect(asset.artists.reduce(0) { $0 + $1.utf8.count } <= MediaAsset.maximumArtistBytes)
        #expect(asset.artists == Array(raw.artists.prefix(asset.artists.count)), "artists are kept whole and in order")
        #expect((asset.appName?.utf8.count ?? 0) <= TrackMetadata.Limits.maximumTextBytes)
        #expect(Self.wireBound(asset.fields) < 16 << 10)
    }

    @Test("an app id the person could not opt out (empty or over 255 bytes) makes no asset")
    func unboundedAppID() {
        let base = MediaAsset(title: "T", appID: "ok", started: 1, ended: 2, listened: 1, source: .mpris)
        #expect(base.bounded == base)
        for appID in ["", String(repeating: "x", count: 256), String(repeating: "é", count: 1 << 19)] {
            var asset = base
            asset.appID = appID
            #expect(asset.bounded == nil)
        }
    }
}
