import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

@Suite("HistoryStore: RecentMedia queries")
struct HistoryStoreQueryTests {
    @Test func newestFirstWithTiesOnStartedBrokenByIDDescending() async throws {
        let store = try HistoryStore.inMemory()
        let a = try await answer { store.insert(makeAsset("A", started: 100), completion: $0) }
        let b = try await answer { store.insert(makeAsset("B", started: 300), completion: $0) }
        let c = try await answer { store.insert(makeAsset("C", started: 200), completion: $0) }
        let d = try await answer { store.insert(makeAsset("D", started: 300), completion: $0) }
        let ids = try await store.recentPage(RecentQuery()).map(\.id)
        #expect(ids == [d.id, b.id, c.id, a.id])
    }

    @Test func sinceIsInclusiveAndUntilExclusiveToTheMicrosecond() async throws {
        let store = try HistoryStore.inMemory()
        for started: Microseconds in [999, 1000, 1001, 1999, 2000, 2001] {
            _ = try await answer { store.insert(makeAsset("T\(started)", started: started), completion: $0) }
        }
        let window = try await store.recentPage(RecentQuery(since: 1000, until: 2000))
        #expect(window.map(\.started) == [1999, 1001, 1000])
        #expect(try await store.recentPage(RecentQuery(since: 2001)).map(\.started) == [2001])
        #expect(try await store.recentPage(RecentQuery(until: 1000)).map(\.started) == [999])
        #expect(try await store.recentPage(RecentQuery(since: 1500, until: 1500)).isEmpty)
    }

    @Test func limitCapsTheAnswer() async throws {
        let store = try HistoryStore.inMemory()
        try await fill(store, count: 20)
        #expect(try await store.recentPage(RecentQuery(limit: 7)).count == 7)
        #expect(try await store.recentPage(RecentQuery(limit: 1)).first?.title == "Track 19")
    }

    @Test func appFilterReturnsOnlyThatApp() async throws {
        let store = try HistoryStore.inMemory()
        try await fill(store, count: 30, apps: ["mpv", "vlc", "spotify"])
        let vlc = try await store.recentPage(RecentQuery(limit: 100, appID: "vlc"))
        #expect(vlc.count == 10 && vlc.allSatisfy { $0.appID == "vlc" })
        #expect(vlc.map(\.started) == vlc.map(\.started).sorted(by: >))
        #expect(try await store.recentPage(RecentQuery(appID: "rhythmbox")).isEmpty)
    }

    @Test func excludedAppsAreNeverReturned() async throws {
        let store = try HistoryStore.inMemory()
        try await fill(store, count: 30, apps: ["mpv", "vlc", "spotify"])
        let answer = try await store.recentPage(RecentQuery(limit: 100, excludingApps: ["vlc", "spotify"]))
        #expect(answer.count == 10 && answer.allSatisfy { $0.appID == "mpv" })
        #expect(try await store.recentPage(RecentQuery(appID: "vlc", excludingApps: ["vlc"])).isEmpty)
        let limited = try await store.recentPage(RecentQuery(limit: 4, excludingApps: ["mpv"]))
        #expect(limited.count == 4 && limited.allSatisfy { $0.appID != "mpv" })
    }

    @Test func pagingThroughAThousandAssetsInPagesOfFiftyGivesEachExactlyOnce() async throws {
        let store = try HistoryStore.inMemory()
        // Many ties on `started` so that pages must break them by id.
        let assets = (0..<1000).map { makeAsset("T\($0)", app: $0 % 3 == 0 ? "vlc" : "mpv", started: Int64($0 / 7)) }
        let outcomes = try await answer { store.insert(contentsOf: assets, completion: $0) }
        var seen: [Int64] = []
        var cursor: Int64?
        var pages = 0
        repeat {
            let page = try await store.recentPage(RecentQuery(limit: 50, beforeID: cursor))
            #expect(page.count <= 50)
            seen += page.compactMap(\.id)
            cursor = page.last?.id
            pages += 1
            if page.count < 50 { break }
        } while pages < 100
        #expect(seen.count == 1000)
        #expect(Set(seen) == Set(outcomes.map(\.id)))
        #expect(seen == (try await store.recentPage(RecentQuery(limit: 1000))).compactMap(\.id))
    }

    @Test func pagingWithinOneAppAndATimeWindow() async throws {
        let store = try HistoryStore.inMemory()
        try await fill(store, count: 300, apps: ["mpv", "vlc"], start: 0)
        var seen: [MediaAsset] = []
        var cursor: Int64?
        while true {
            let page = try await store.recentPage(
                RecentQuery(since: 10_000_000, until: 250_000_000, limit: 25, appID: "vlc", beforeID: cursor))
            seen += page
            guard page.count == 25, let last = page.last?.id else { break }
            cursor = last
        }
        let expected = try await store.recentPage(RecentQuery(since: 10_000_000, until: 250_000_000, limit: 1000, appID: "vlc"))
        #expect(seen == expected)
        #expect(seen.count == 120)
    }

    @Test(arguments: [(cursorAt: 3, until: 8), (cursorAt: 8, until: 3), (cursorAt: 5, until: 5)])
    func theTighterOfCursorAndUntilBoundsThePage(cursorAt: Int, until: Int) async throws {
        let store = try HistoryStore.inMemory()
        // Two assets per second, so the cursor also has a tie on `started`.
        let assets = (0..<20).map { makeAsset("T\($0)", started: Int64($0 / 2)) }
        let outcomes = try await answer { store.insert(contentsOf: assets, completion: $0) }
        let cursorIndex = cursorAt * 2 + 1
        let page = try await store.recentPage(
            RecentQuery(until: Int64(until), limit: 100, beforeID: outcomes[cursorIndex].id))
        let expected = (0..<20).reversed().filter { $0 < cursorIndex && $0 / 2 < until }.map { "T\($0)" }
        #expect(page.map(\.title) == expected)
    }

    @Test func anUnknownCursorIsAnError() async throws {
        let store = try HistoryStore.inMemory()
        try await fill(store, count: 3)
        await #expect(throws: StoreError.unknownCursor(999)) {
            try await store.recentPage(RecentQuery(beforeID: 999))
        }
    }

    @Test func aCursorFromAnotherAppStillPositionsThePage() async throws {
        let store = try HistoryStore.inMemory()
        let outcomes = try await fill(store, count: 10, apps: ["mpv", "vlc"])
        // Asset 5 is vlc's; continuing mpv's history after it gives mpv's assets older than it.
        let page = try await store.recentPage(RecentQuery(appID: "mpv", beforeID: outcomes[5].id))
        #expect(page.map(\.title) == ["Track 4", "Track 2", "Track 0"])
    }

    @Test func emptyStoreAnswersEmpty() async throws {
        let store = try HistoryStore.inMemory()
        #expect(try await store.recentPage(RecentQuery()).isEmpty)
        #expect(try await answer { store.count(completion: $0) } == 0)
        #expect(try await answer { store.oldestStarted(completion: $0) } == nil)
    }
}
