import Foundation
import Testing
@testable import MediaBroker

@Suite("HistoryStore: files, durability and closing")
struct HistoryStoreDurabilityTests {
    @Test func assetsOpenListensAndSettingsSurviveAReopen() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        let asset = makeAsset("Kept")
        do {
            let store = try HistoryStore(path: path)
            _ = try await store.insert(asset)
            try await store.saveOpenListen(key: "k", asset: asset, checkpoint: 5)
            try await store.setSetting("retention-days", "30")
            store.close()
        }
        let reopened = try HistoryStore(path: path)
        #expect(try await reopened.recent(RecentQuery()).map(\.title) == ["Kept"])
        #expect(try await reopened.openListens().map(\.checkpoint) == [5])
        #expect(try await reopened.setting("retention-days") == "30")
    }

    @Test func dataIsReadableWithoutAnOrderlyClose() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        let writer = try HistoryStore(path: path)
        _ = try await writer.insert(makeAsset("Acknowledged"))
        // A second connection sees the committed WAL while the writer is still open (as after kill -9).
        let reader = try HistoryStore(path: path, checkIntegrity: false)
        #expect(try await reader.recent(RecentQuery()).map(\.title) == ["Acknowledged"])
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

    @Test func missingFoldersAreCreatedPrivateAndTheFileIsOwnerOnly() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("data/media-broker/history.db")
        let store = try HistoryStore(path: path)
        _ = try await store.insert(makeAsset())
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
        await #expect(throws: StoreError.closed) { try await store.count() }
        await #expect(throws: StoreError.closed) { try await store.insert(makeAsset()) }
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
        await #expect(throws: StoreError.closed) { try await store.count() }
    }

    @Test func aStoreDroppedWithoutClosingStillRunsWhatWasQueued() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        await withCheckedContinuation { continuation in
            let store = try? HistoryStore(path: path)
            store?.insert(makeAsset("Last words")) { _ in continuation.resume() }
        }
        let reopened = try HistoryStore(path: path)
        #expect(try await reopened.recent(RecentQuery()).map(\.title) == ["Last words"])
    }

    @Test func aReadOnlyFileIsReportedAsTransient() async throws {
        // Root ignores file modes, so simulate the read-only disk with SQLite's own read-only open.
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        try HistoryStore(path: path).close()
        let error = SQLiteError(code: .init(rawValue: 8), message: "attempt to write a readonly database")
        let mapped = StoreError(error, path: path)
        #expect(mapped == .readOnly(error) && mapped.isTransient)
        #expect(StoreError(SQLiteError(code: .full, message: "full"), path: path).isTransient)
        #expect(StoreError(SQLiteError(code: .init(rawValue: 10 | (3 << 8)), message: "write"), path: path)
            == .ioFailure(SQLiteError(code: .init(rawValue: 10 | (3 << 8)), message: "write")))
        #expect(!StoreError.corrupt(path: path, reason: "x").isTransient)
    }
}
