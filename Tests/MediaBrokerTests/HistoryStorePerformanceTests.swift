import Testing
@testable import MediaBroker
@testable import BrokerCore

/// A sanity check, not a benchmark (that is `bench/run`, issue 7): a large store is filled in
/// batches and still answers the right page. No timing is asserted.
@Suite("HistoryStore: scale")
struct HistoryStorePerformanceTests {
    @Test func aHundredThousandAssetsInBatchesStillAnswerTheRightFifty() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.db"))
        let apps = ["mpv", "vlc", "spotify", "rhythmbox"]
        let total = 100_000
        let batch = 10_000
        for first in stride(from: 0, to: total, by: batch) {
            let assets = (first..<first + batch).map { index in
                makeAsset("Track \(index)", app: apps[index % apps.count], started: Int64(index) * 1_000_000)
            }
            _ = try await answer { store.insert(contentsOf: assets, completion: $0) }
        }
        #expect(try await answer { store.count(completion: $0) } == total)

        let newest = try await store.recentPage(RecentQuery(limit: 50))
        #expect(newest.map(\.title) == (0..<50).map { "Track \(total - 1 - $0)" })

        let window = try await store.recentPage(
            RecentQuery(since: 40_000_000_000, until: 60_000_000_000, limit: 50, appID: "vlc"))
        let expected = stride(from: 59_999, through: 40_000, by: -1).filter { $0 % 4 == 1 }.prefix(50)
        #expect(window.map(\.title) == expected.map { "Track \($0)" })
    }
}
