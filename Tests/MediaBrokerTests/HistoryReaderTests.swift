import Foundation
import Glibc
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

@Suite("HistoryReader: RecentMedia on a thread and a connection of its own")
struct HistoryReaderTests {
    /// The reader's answer to `query`, and whether it came on the calling thread.
    func readersAnswer(_ reader: HistoryReader, _ query: RecentQuery) async -> (Result<[MediaAsset]?, StoreError>, onCallersThread: Bool) {
        let caller = pthread_self()
        return await withCheckedContinuation { continuation in
            reader.read({ history throws(SQLiteError) in try history.recent(query) }) { result in
                continuation.resume(returning: (result, pthread_equal(pthread_self(), caller) != 0))
            }
        }
    }

    @Test func seesWhatTheStoreCommittedAndAnswersLikeItOnItsOwnThread() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.db"))
        try await fill(store, count: 120, apps: ["mpv", "vlc"])
        let reader = HistoryReader(path: folder.file("history.db"))
        let query = RecentQuery(limit: 50, appID: "vlc")
        let (first, onCallersThread) = await readersAnswer(reader, query)
        let assets = try #require(try first.get())
        #expect(!onCallersThread)
        #expect(assets == (try await store.recentPage(query)))
        #expect(assets.count == 50)
        _ = try await answer { store.insert(makeAsset("Newest", app: "vlc", started: 1_800_000_000_000_000), completion: $0) }
        let after = try #require(try await readersAnswer(reader, query).0.get())
        #expect(after.first?.title == "Newest")
    }

    @Test func anUnknownCursorIsSaidSo() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.db"))
        try await fill(store, count: 3)
        let reader = HistoryReader(path: folder.file("history.db"))
        #expect(try await readersAnswer(reader, RecentQuery(beforeID: 999)).0.get() == nil)
    }

    @Test func aFileThatCannotBeOpenedIsAnErrorForTheCallerToHandle() async throws {
        let folder = try TemporaryFolder()
        let reader = HistoryReader(path: folder.file("missing.db"))
        guard case .failure = await readersAnswer(reader, RecentQuery(limit: 5)).0 else {
            Issue.record("a missing file answered")
            return
        }
        guard case .failure = await readersAnswer(reader, RecentQuery(limit: 5)).0 else {
            Issue.record("a missing file answered the second time")
            return
        }
    }

    @Test func aWriteInProgressDoesNotHoldTheReaderUp() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.db"))
        try await fill(store, count: 10)
        let reader = HistoryReader(path: folder.file("history.db"))
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
        let answered = await readersAnswer(reader, RecentQuery(limit: 50)).0
        release.signal()
        #expect(try answered.get()?.count == 10, "the reader waited for or failed on the writer")
        #expect(try await answer { store.count(completion: $0) } == 11)
    }

    @Test func closingTheStoreEmptiesTheWALEvenWithAReaderOpen() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        let store = try HistoryStore(path: path)
        try await fill(store, count: 100)
        let reader = HistoryReader(path: path)
        #expect(try await readersAnswer(reader, RecentQuery(limit: 5)).0.get()?.count == 5)
        store.close()
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(wal == 0, "\(wal) bytes left in the WAL")
        _ = reader
    }
}
