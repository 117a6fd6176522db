import AssetContract
import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore

@Suite("MediaAsset as the contract's a{sv}")
struct AssetFieldsTests {
    /// The contract's fields the plain way: a dictionary, sorted into key order by `vardict`.
    static func contract(_ asset: MediaAsset) -> DBusValue {
        var map: [String: DBusValue] = [
            "title": .string(asset.title), "app_id": .string(asset.appID), "started": .int64(asset.started),
            "ended": .int64(asset.ended), "listened": .int64(asset.listened), "source": .string(asset.source.rawValue),
            "summary": .string(asset.summary),
        ]
        if let id = asset.id { map["id"] = .int64(id) }
        if !asset.artists.isEmpty {
            map["artists"] = .strings(asset.artists)
            map["artist"] = .string(asset.artists.joined(separator: ", "))
        }
        for (key, text) in [("album", asset.album), ("app_name", asset.appName), ("app_icon", asset.appIcon),
                            ("kind", asset.kind?.rawValue), ("artwork", asset.artwork), ("artwork_url", asset.artworkURL),
                            ("site", asset.site)] {
            if let text, !text.isEmpty { map[key] = .string(text) }
        }
        if let length = asset.length { map["length"] = .int64(length) }
        return .vardict(map)
    }

    @Test func everyFieldSetGivesEveryKeyInKeyOrder() {
        var asset = makeAsset("Song", artists: ["A, the first", "B"])
        asset.id = 42
        asset.artwork = "/data/media-broker/artwork/" + String(repeating: "a", count: 64) + ".png"
        asset.artworkURL = "https://example.com/cover.jpg"
        asset.site = "example.com"
        #expect(asset.fields == Self.contract(asset))
        guard case .dictionary(_, _, let entries) = asset.fields else { Issue.record("not a dictionary"); return }
        #expect(entries.count == AssetKey.allCases.count)
    }

    @Test func unknownValuesAreAbsentKeysNeverEmptyStrings() throws {
        let asset = MediaAsset(title: "Bare", appID: "mpv", appName: "", appIcon: nil, started: 1, ended: 2, listened: 1,
                               source: .donation)
        #expect(asset.fields == Self.contract(asset))
        #expect(try asset.fields.vardict().keys.sorted() == ["app_id", "ended", "listened", "source", "started", "summary", "title"])
        #expect(asset.summary == "Bare")
    }

    @Test func theSummaryJoinsTitleArtistAndAlbumWithinTheTextBound() {
        let short = MediaAsset(title: "Teardrop", artists: ["Massive Attack"], album: "Mezzanine", appID: "mpv",
                               started: 1, ended: 2, listened: 1, source: .mpris)
        #expect(short.summary == "Teardrop — Massive Attack · Mezzanine")
        let long = String(repeating: "é", count: 400)
        let wide = MediaAsset(title: long, artists: [long], album: long, appID: "mpv", started: 1, ended: 2, listened: 1, source: .mpris)
        #expect(wide.summary.utf8.count <= AssetContract.maximumTextBytes)
        #expect(wide.summary.hasPrefix(long + " — "))
    }
}
