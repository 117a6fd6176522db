import Foundation
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore

@Suite("HistoryStore: purge, retention and app summaries")
struct HistoryStorePurgeTests {
    @Test func purgeByAppReturnsExactlyThatAppsIDs() async throws {
        let store = try HistoryStore.inMemory()
        let outcomes = try await fill(store, count: 30, apps: ["mpv", "vlc", "spotify"])
        let vlcIDs = outcomes.enumerated().filter { $0.offset % 3 == 1 }.map(\.element.id)
        let removed = try await store.purgedIDs(.app("vlc"))
        #expect(removed == vlcIDs)
        #expect(try await answer { store.count(completion: $0) } == 20)
        #expect(try await store.recentPage(RecentQuery(appID: "vlc")).isEmpty)
    }

    @Test func purgeByRangeHonoursExactMicrosecondBounds() async throws {
        let store = try HistoryStore.inMemory()
        var ids: [Microseconds: Int64] = [:]
        for started: Microseconds in [999, 1000, 1500, 1999, 2000] {
            ids[started] = try await answer { store.insert(makeAsset("T\(started)", started: started), completion: $0) }.id
        }
        let removed = try await store.purgedIDs(.range(since: 1000, until: 2000))
        #expect(Set(removed) == Set([1000, 1500, 1999].compactMap { ids[$0] }))
        #expect(try await store.recentPage(RecentQuery()).map(\.started) == [2000, 999])
    }

    @Test func purgeAllEmptiesTheStore() async throws {
        let store = try HistoryStore.inMemory()
        let outcomes = try await fill(store, count: 12)
        #expect(Set(try await store.purgedIDs(.all)) == Set(outcomes.map(\.id)))
        #expect(try await answer { store.count(completion: $0) } == 0)
        #expect(try await store.purgedIDs(.all).isEmpty)
    }

    @Test func expireRemovesOnlyWhatStartedBeforeTheCutoff() async throws {
        let store = try HistoryStore.inMemory()
        let outcomes = try await fill(store, count: 10, start: 0)
        let removed = try await store.expiredIDs(olderThan: 4_000_000)
        #expect(removed == outcomes.prefix(4).map(\.id))
        #expect(try await answer { store.oldestStarted(completion: $0) } == 4_000_000)
    }

    @Test func aLargePurgeIsReportedInBoundedBatchesThatAddUp() async throws {
        let store = try HistoryStore.inMemory()
        let total = HistoryStore.purgeBatchSize * 2 + 345
        let outcomes = try await fill(store, count: total, apps: ["mpv"])
        let batches = Locked<[[Int64]]>([])
        let count = try await answer { completion in
            store.purge(.app("mpv"), onBatch: { ids in batches.withLock { $0.append(ids) } }, completion: completion)
        }
        let reported = batches.withLock { $0 }
        #expect(count == total)
        #expect(reported.map(\.count) == [HistoryStore.purgeBatchSize, HistoryStore.purgeBatchSize, 345])
        #expect(reported.flatMap { $0 } == outcomes.map(\.id))
    }

    @Test func secureDeleteIsOn() async throws {
        let store = try HistoryStore.inMemory()
        #expect(try await store.pragma("PRAGMA secure_delete") == "1")
    }

    @Test func purgedTextIsGoneFromTheFiles() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        let store = try HistoryStore(path: path)
        let secret = "Secret-Song-\(UUID().uuidString)"
        _ = try await answer { store.insert(makeAsset(secret, app: "private.player"), completion: $0) }
        try await fill(store, count: 200)
        _ = try await store.purgedIDs(.app("private.player"))
        let needle = Data(secret.utf8)
        for file in [path, path + "-wal"] where fileExists(file) {
            #expect(try fileBytes(file).range(of: needle) == nil, "\(file) still holds the purged title")
        }
        store.close()
        #expect(try fileBytes(path).range(of: needle) == nil)
    }

    @Test func oldestStartedFollowsInsertsAndPurges() async throws {
        let store = try HistoryStore.inMemory()
        #expect(try await answer { store.oldestStarted(completion: $0) } == nil)
        _ = try await answer { store.insert(makeAsset("B", started: 50), completion: $0) }
        _ = try await answer { store.insert(makeAsset("A", started: -7), completion: $0) }
        #expect(try await answer { store.oldestStarted(completion: $0) } == -7)
        _ = try await store.expiredIDs(olderThan: 0)
        #expect(try await answer { store.oldestStarted(completion: $0) } == 50)
    }

    @Test func appSummariesCountListensAndTakeNameAndIconFromTheNewest() async throws {
        let store = try HistoryStore.inMemory()
        try await fill(store, count: 9, apps: ["mpv", "vlc", "vlc"], start: 0)
        var renamed = makeAsset("Newest", app: "vlc", started: 100_000_000)
        renamed.appName = "VLC media player"
        renamed.appIcon = nil
        _ = try await answer { store.insert(renamed, completion: $0) }
        let summaries = try await answer { store.appSummaries(completion: $0) }
        #expect(summaries == [
            AppSummary(appID: "vlc", appName: "VLC media player", appIcon: nil, listens: 7, lastSeen: 100_000_000),
            AppSummary(appID: "mpv", appName: "App mpv", appIcon: "/usr/share/icons/mpv.png", listens: 3,
                       lastSeen: 6_000_000),
        ])
    }
}
