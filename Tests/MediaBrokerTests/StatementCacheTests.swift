import Testing
@testable import MediaBroker

/// The statement cache: one compiled statement per SQL text, however the text is handed over.
@Suite("SQLiteDatabase: the statement cache")
struct StatementCacheTests {
    @Test func aKeptTextAndTheSameTextWrittenAgainFindOneStatement() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        let kept = StatementText("SELECT 1")
        let first = try db.cachedStatement(kept)
        #expect(try db.cachedStatement(kept) === first)
        #expect(try db.cachedStatement("SELECT " + String(1)) === first)
    }

    @Test func anotherTextIsAnotherStatement() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        let one = try db.cachedStatement("SELECT 1")
        let two = try db.cachedStatement(StatementText("SELECT 2"))
        #expect(one !== two)
        #expect(StatementText("SELECT 1") != StatementText("SELECT 2"))
        let answer = try two.use { statement throws(SQLiteError) in try statement.step() ? statement.int64(at: 0) : nil }
        #expect(answer == 2)
    }
}
