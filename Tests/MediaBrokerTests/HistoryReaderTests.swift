import Foundation
import TestSupport
import Testing
@testable import MediaBroker

@Suite("HistoryReader: RecentMedia on the bus thread")
struct HistoryReaderTests {
    static let budget: Microseconds = 1_000_000

    @Test func seesWhatTheStoreCommittedAndAnswersLikeIt() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.db"))
        try await fill(store, count: 120, apps: ["mpv", "vlc"])
        let reader = try HistoryReader(path: folder.file("history.db"))
        let query = RecentQuery(limit: 50, appID: "vlc")
        guard case .assets(let assets) = reader.recent(query, budget: Self.budget) else {
            Issue.record("no answer")
            return
        }
        #expect(assets == (try await store.recent(query)))
        #expect(assets.count == 50)
        _ = try await store.insert(makeAsset("Newest", app: "vlc", started: 1_800_000_000_000_000))
        guard case .assets(let after) = reader.recent(query, budget: Self.budget) else {
            Issue.record("no answer")
            return
        }
        #expect(after.first?.title == "Newest")
    }

    @Test func anUnknownCursorIsSaidSo() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.db"))
        try await fill(store, count: 3)
        let reader = try HistoryReader(path: folder.file("history.db"))
        guard case .unknownCursor = reader.recent(RecentQuery(beforeID: 999), budget: Self.budget) else {
            Issue.record("expected .unknownCursor")
            return
        }
    }

    @Test func aQueryOverItsBudgetIsInterruptedForTheStoreThreadToAnswer() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.db"))
        try await fill(store, count: 3000, apps: ["mpv", "vlc"])
        let reader = try HistoryReader(path: folder.file("history.db"))
        // Excluding the only other app makes SQLite walk every row to find none.
        let slow = RecentQuery(limit: 50, excludingApps: ["mpv", "vlc"])
        guard case .notHere(let error) = reader.recent(slow, budget: 0) else {
            Issue.record("expected the query to be interrupted")
            return
        }
        #expect(error.code == .interrupt)
        // The interruption is over with the query: the next one has its whole budget.
        guard case .assets(let assets) = reader.recent(RecentQuery(limit: 5), budget: Self.budget) else {
            Issue.record("no answer after an interrupted query")
            return
        }
        #expect(assets.count == 5)
    }

    @Test func aWriteInProgressDoesNotHoldTheReaderUp() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.db"))
        try await fill(store, count: 10)
        let reader = try HistoryReader(path: folder.file("history.db"))
        let inTransaction = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        // The store thread holds a write transaction, uncommitted, until the reader has answered.
        store.write({ database throws(SQLiteError) -> Void in
            try database.connection.transaction { () throws(SQLiteError) in
                _ = try database.insertInTransaction(makeAsset("Uncommitted"))
                inTransaction.signal()
                release.wait()
            }
        }, done: { _ in })
        inTransaction.wait()
        let answer = reader.recent(RecentQuery(limit: 50), budget: Self.budget)
        release.signal()
        guard case .assets(let assets) = answer else {
            Issue.record("the reader waited for or failed on the writer")
            return
        }
        #expect(assets.count == 10)
        #expect(try await store.count() == 11)
    }

    @Test func closingTheStoreEmptiesTheWALEvenWithAReaderOpen() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        let store = try HistoryStore(path: path)
        try await fill(store, count: 100)
        let reader = try HistoryReader(path: path)
        guard case .assets = reader.recent(RecentQuery(limit: 5), budget: Self.budget) else {
            Issue.record("no answer")
            return
        }
        store.close()
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(wal == 0, "\(wal) bytes left in the WAL")
        _ = reader
    }
}
