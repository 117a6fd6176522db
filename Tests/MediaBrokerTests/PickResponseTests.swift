@testable import MediaBroker
import SwiftDBus
import Testing
@testable import BrokerCore

/// What a `PickMedia` request's `Response` holds (issue 21): only what the person picked.
@Suite struct PickResponseTests {
    static let minute: Microseconds = 60_000_000

    static func asset(_ id: Int64, _ title: String, at minute: Microseconds) -> MediaAsset {
        MediaAsset(id: id, title: title, artists: ["Massive Attack"], album: "Mezzanine", appID: "org.example.Radio",
                   started: minute * Self.minute, ended: minute * Self.minute + 4 * Self.minute, listened: 4 * Self.minute,
                   source: .donation)
    }

    static let found = [asset(1, "Angel", at: 10), asset(2, "Risingson", at: 15), asset(3, "Teardrop", at: 20)]

    @Test("the codes are the portal's: 0 shared, 1 cancelled, 2 ended")
    func codes() {
        #expect(PickResponse.shared(assets: [], momentID: nil).code == 0)
        #expect(PickResponse.cancelled.code == 1)
        #expect(PickResponse.ended.code == 2)
    }

    @Test("cancelled and ended carry nothing")
    func nothingButAShare() {
        #expect(PickResponse.cancelled.results(localTime: .fixed(hours: 0)).isEmpty)
        #expect(PickResponse.ended.results(localTime: .fixed(hours: 0)).isEmpty)
    }

    @Test("the picked listens come in the order picked, and only those of the offered span")
    func onlyPickedInSpan() {
        let response = PickResponse.shared(ids: [3, 1, 9], found: Self.found, momentID: nil, span: 0...(16 * Self.minute))
        guard case .shared(let assets, let momentID) = response else {
            Issue.record("not shared")
            return
        }
        #expect(assets.compactMap(\.id) == [1], "3 began after the span; 9 is not in the history")
        #expect(momentID == nil)
        #expect(response.results(localTime: .fixed(hours: 0)).keys.sorted() == ["assets"])
    }

    @Test("the moment describes the shared listens alone, under the id the picker showed")
    func momentOfTheSharedAlone() throws {
        let response = PickResponse.shared(ids: [1, 3], found: Self.found, momentID: "1", span: 0...(60 * Self.minute))
        let results = response.results(localTime: .fixed(hours: 0))
        #expect(results.keys.sorted() == ["assets", "moment"])
        let moment = try #require(try results["moment"]?.vardict())
        #expect(try moment["id"]?.string() == "1")
        #expect(try moment["asset_ids"]?.array().map { try $0.integer(as: Int64.self) } == [1, 3])
        #expect(try moment["count"]?.integer(as: UInt32.self) == 2)
        #expect(try moment["listened"]?.integer(as: Int64.self) == 8 * Self.minute, "Risingson's minutes are not told")
        let assets = try #require(try results["assets"]?.array())
        #expect(try assets.map { try $0.vardict()["id"]?.integer(as: Int64.self) } == [1, 3])
    }
}
