import Foundation
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

@Suite("HistoryStore: schema versions and damaged files")
struct HistoryStoreMigrationTests {
    @Test func migrationsAreOrderedAndStartAtOne() {
        let versions = Schema.migrations.map(\.version)
        #expect(versions == Array(1...versions.count))
        #expect(Schema.currentVersion == versions.last)
    }

    @Test func aNewFileIsAtTheCurrentVersion() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.db"))
        #expect(try await store.pragma("PRAGMA user_version") == "\(Schema.currentVersion)")
        let tables = try await store.inspect { database throws(SQLiteError) in
            try database.connection.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
                .use { statement throws(SQLiteError) in try statement.rows { $0.text(at: 0) ?? "" } }
        }
        #expect(tables == ["artwork", "assets", "correction_rules", "edits", "open_listens", "settings", "sqlite_sequence"])
    }

    @Test func aVersionOneHistoryKeepsItsAssetsWhenArtworkArrives() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        do {
            let old = try SQLiteDatabase(path: path)
            try old.execute(Schema.migrations[0].sql)
            try old.execute("PRAGMA user_version = 1")
            try old.execute("""
                INSERT INTO assets(started, ended, listened, title, app_id, source) VALUES(1, 2, 1, 'Before', 'mpv', 'mpris');
                INSERT INTO open_listens(key, started, ended, listened, title, app_id, source, checkpointed)
                    VALUES(':1.5 1-1', 3, 4, 1, 'Open', 'mpv', 'mpris', 4);
                """)
        }
        let store = try HistoryStore(path: path)
        #expect(try await store.pragma("PRAGMA user_version") == "\(Schema.currentVersion)")
        let kept = try await store.recentPage(RecentQuery())
        #expect(kept.map(\.title) == ["Before"] && kept.first?.artwork == nil && kept.first?.artworkURL == nil)
        #expect(try await answer { store.openListens(completion: $0) }.map(\.asset.title) == ["Open"])
    }

    @Test func migratingTwiceChangesNothing() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        let store = try HistoryStore(path: path)
        _ = try await answer { store.insert(makeAsset(), completion: $0) }
        try await store.inspect { database throws(SQLiteError) in try Schema.migrate(database.connection) }
        store.close()
        let reopened = try HistoryStore(path: path)
        #expect(try await answer { reopened.count(completion: $0) } == 1)
    }

    /// With `writerCrashed`, the newer broker's last transactions are still only in its WAL (it closed
    /// without a checkpoint, as after `kill -9`): opening must not fold them into the main file.
    @Test(arguments: [false, true])
    func aNewerSchemaIsRefusedAndLeftUntouched(writerCrashed: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        let newer = Schema.currentVersion + 1
        do {
            let future = try SQLiteDatabase(path: path)
            try future.setCheckpointOnClose(!writerCrashed)
            try future.execute("PRAGMA journal_mode = WAL; CREATE TABLE t(x); INSERT INTO t VALUES(1)")
            try future.execute("PRAGMA user_version = \(newer)")
        }
        #expect(fileExists(path + "-wal") == writerCrashed)
        let before = try fileBytes(path)
        let walBefore = writerCrashed ? try fileBytes(path + "-wal") : nil
        #expect(throws: StoreError.newerSchema(found: newer, supported: Schema.currentVersion)) {
            try HistoryStore(path: path)
        }
        #expect(try fileBytes(path) == before)
        #expect((writerCrashed ? try fileBytes(path + "-wal") : nil) == walBefore)
    }

    @Test func aFileThatIsNotADatabaseIsCorrupt() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        let before = try fileBytes(path)
        #expect { try HistoryStore(path: path) } throws: { error in
            guard case StoreError.corrupt(let where_, _) = error else { return false }
            return where_ == path
        }
        #expect(try fileBytes(path) == before)
    }

    @Test func aTruncatedDatabaseIsCorrupt() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        do {
            let store = try HistoryStore(path: path)
            try await fill(store, count: 2000)
            store.close()
        }
        let whole = try fileBytes(path)
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        #expect { try HistoryStore(path: path) } throws: { error in
            guard case StoreError.corrupt = error else { return false }
            return true
        }
    }

    @Test func moveAsideRenamesTheFileAndItsWALSoAFreshStoreCanStart() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: path))
        try Data("stale wal".utf8).write(to: URL(fileURLWithPath: path + "-wal"))
        let moved = try HistoryStore.moveAside(path: path)
        #expect(moved.hasPrefix(path + ".corrupt-"))
        #expect(moved.hasSuffix("Z"))
        #expect(fileExists(moved) && fileExists(moved + "-wal"))
        #expect(!fileExists(path) && !fileExists(path + "-wal"))
        #expect(try fileBytes(moved) == Data("not a database at all".utf8))

        try Data("damaged again".utf8).write(to: URL(fileURLWithPath: path))
        let second = try HistoryStore.moveAside(path: path)
        #expect(second != moved && fileExists(second))

        let fresh = try HistoryStore(path: path)
        #expect(try await answer { fresh.count(completion: $0) } == 0)
    }

    @Test func movingAsideAMissingFileFails() throws {
        let folder = try TemporaryFolder()
        #expect(throws: StoreError.self) { try HistoryStore.moveAside(path: folder.file("absent.db")) }
    }
}
