import Testing
@testable import MediaBroker

/// SQLite's memory statistics cost a process-wide mutex on every allocation inside SQLite; the
/// broker reads none of them, so they are off from the first connection on.
@Suite("HistoryStore: SQLite's process-wide settings")
struct SQLiteProcessSettingsTests {
    @Test func memoryIsNotCountedProcessWide() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES(randomblob(10000))")
        #expect(SQLiteDatabase.countedMemory == 0)
    }

    @Test func theConnectionsPageCacheIsStillMeasured() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES(randomblob(100000))")
        #expect(db.pageCacheBytes > 0)
    }
}
