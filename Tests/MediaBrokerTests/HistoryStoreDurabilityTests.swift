import Foundation
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

@Suite("HistoryStore: files, durability and closing")
struct HistoryStoreDurabilityTests {
    @Test func assetsOpenListensAndSettingsSurviveAReopen() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        let asset = makeAsset("Kept")
        do {
            let store = try HistoryStore(path: path)
            _ = try await answer { store.insert(asset, completion: $0) }
            try await answer { store.saveOpenListen(key: "k", asset: asset, checkpoint: 5, completion: $0) }
            try await answer { store.setSetting("retention-days", "30", completion: $0) }
            store.close()
        }
        let reopened = try HistoryStore(path: path)
        #expect(try await reopened.recentPage(RecentQuery()).map(\.title) == ["Kept"])
        #expect(try await answer { reopened.openListens(completion: $0) }.map(\.checkpoint) == [5])
        #expect(try await answer { reopened.setting("retention-days", completion: $0) } == "30")
    }

    @Test func dataIsReadableWithoutAnOrderlyClose() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        let writer = try HistoryStore(path: path)
        _ = try await answer { writer.insert(makeAsset("Acknowledged"), completion: $0) }
        // A second connection sees the committed WAL while the writer is still open (as after kill -9).
        let reader = try HistoryStore(path: path, checkIntegrity: false)
        #expect(try await reader.recentPage(RecentQuery()).map(\.title) == ["Acknowledged"])
        _ = writer
    }

    @Test func theFileIsWALWithFullSync() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.db"))
        #expect(try await store.pragma("PRAGMA journal_mode") == "wal")
        #expect(try await store.pragma("PRAGMA synchronous") == "2")  // FULL
        #expect(try await store.pragma("PRAGMA foreign_keys") == "1")
        #expect(try await store.pragma("PRAGMA secure_delete") == "1")
    }

    @Test func openingALargeHistoryLeavesThePageCacheEmpty() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        do {
            let store = try HistoryStore(path: path)
            try await fill(store, count: 5000)
            store.close()
        }
        // quick_check reads every page through the cache; what it read must not stay there.
        let reopened = try HistoryStore(path: path)
        let cached = try await reopened.inspect { database throws(SQLiteError) in database.connection.pageCacheBytes }
        #expect(cached < 64 << 10, "\(cached) bytes cached after opening")
        // Walking the whole file again fills the cache only up to its bound.
        #expect(try await answer { reopened.count(completion: $0) } == 5000)
        let afterCount = try await reopened.inspect { database throws(SQLiteError) in database.connection.pageCacheBytes }
        #expect(afterCount <= (HistoryDatabase.cacheSizeKiB + 64) << 10, "\(afterCount) bytes cached after counting")
    }

    @Test func missingFoldersAreCreatedPrivateAndTheFileIsOwnerOnly() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("data/media-broker/history.db")
        let store = try HistoryStore(path: path)
        _ = try await answer { store.insert(makeAsset(), completion: $0) }
        let manager = FileManager.default
        let folderMode = try manager.attributesOfItem(atPath: folder.file("data/media-broker"))[.posixPermissions]
        let fileMode = try manager.attributesOfItem(atPath: path)[.posixPermissions]
        #expect(folderMode as? Int == 0o700)
        #expect(fileMode as? Int == 0o600)
        if fileExists(path + "-wal") {
            #expect(try manager.attributesOfItem(atPath: path + "-wal")[.posixPermissions] as? Int == 0o600)
        }
    }

    @Test func closeFinishesQueuedJobsThenRefusesNewOnes() async throws {
        let store = try HistoryStore.inMemory()
        let finished = Locked(0)
        for index in 0..<20 {
            store.insert(makeAsset("T\(index)")) { result in
                if case .success = result { finished.withLock { $0 += 1 } }
            }
        }
        store.close()
        #expect(finished.withLock { $0 } == 20)
        await #expect(throws: StoreError.closed) { try await answer { store.count(completion: $0) } }
        await #expect(throws: StoreError.closed) { try await answer { store.insert(makeAsset(), completion: $0) } }
        store.close()  // a second close does nothing
    }

    @Test func closingFromACompletionDoesNotDeadlock() async throws {
        let store = try HistoryStore.inMemory()
        let result = await withCheckedContinuation { continuation in
            store.count { result in
                store.close()
                continuation.resume(returning: result)
            }
        }
        #expect(try result.get() == 0)
        await #expect(throws: StoreError.closed) { try await answer { store.count(completion: $0) } }
    }

    @Test func aStoreDroppedWithoutClosingStillRunsWhatWasQueued() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        await withCheckedContinuation { continuation in
            let store = try? HistoryStore(path: path)
            store?.insert(makeAsset("Last words")) { _ in continuation.resume() }
        }
        let reopened = try HistoryStore(path: path)
        #expect(try await reopened.recentPage(RecentQuery()).map(\.title) == ["Last words"])
    }

    @Test func aReadOnlyDatabaseFailsTransientlyAndTheRetrySucceeds() async throws {
        let store = try HistoryStore.inMemory()
        // Root ignores file modes; `query_only` makes SQLite itself refuse writes with SQLITE_READONLY.
        try await store.inspect { database throws(SQLiteError) in try database.connection.execute("PRAGMA query_only = ON") }
        let failure = await #expect(throws: StoreError.self) { try await answer { store.insert(makeAsset(), completion: $0) } }
        guard case .readOnly? = failure else { Issue.record("expected .readOnly, got \(String(describing: failure))"); return }
        #expect(failure?.isTransient == true)
        try await store.inspect { database throws(SQLiteError) in try database.connection.execute("PRAGMA query_only = OFF") }
        #expect(try await answer { store.insert(makeAsset(), completion: $0) }.wasNew)
    }

    @Test func aFullDiskFailsTransientlyLeavesTheFileIntactAndTheRetrySucceeds() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.db"))
        try await fill(store, count: 10)
        // Cap the file at its current size: the next pages cannot be had, as on a full disk.
        try await store.inspect { database throws(SQLiteError) in
            let pages = try database.connection.scalarInt("PRAGMA page_count") ?? 0
            try database.connection.execute("PRAGMA max_page_count = \(pages)")
        }
        let batch = (0..<500).map { makeAsset("Big \($0)", started: Int64($0)) }
        let failure = await #expect(throws: StoreError.self) { try await answer { store.insert(contentsOf: batch, completion: $0) } }
        guard case .diskFull? = failure else { Issue.record("expected .diskFull, got \(String(describing: failure))"); return }
        #expect(failure?.isTransient == true)
        // Each listen tells its own fate (GroupCommit runs a failed group's writes again alone):
        // those written before the disk filled are kept, whole; the others are not.
        let kept = try await answer { store.count(completion: $0) }
        #expect(kept >= 10 && kept < 510)
        #expect(try await store.pragma("PRAGMA quick_check") == "ok")
        try await store.inspect { database throws(SQLiteError) in
            try database.connection.execute("PRAGMA max_page_count = 1000000")
        }
        #expect(try await answer { store.insert(contentsOf: batch, completion: $0) }.count == 500)
        #expect(try await answer { store.count(completion: $0) } == 510)
    }

    @Test func ioErrorsAreTheirOwnTransientCase() {
        let ioWrite = SQLiteError(code: .init(rawValue: 10 | (3 << 8)), message: "disk I/O error")  // SQLITE_IOERR_WRITE
        #expect(StoreError(ioWrite, path: "x") == .ioFailure(ioWrite))
        #expect(StoreError(ioWrite, path: "x").isTransient)
        #expect(!StoreError.corrupt(path: "x", reason: "damaged").isTransient)
        #expect(StoreError.fileSystem(path: "x", operation: "open", errno: ENOSPC).isTransient)
    }
}
