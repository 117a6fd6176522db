import Testing
@testable import MediaBroker

/// Text parameters: what is stored is exactly what was bound — empty, with a NUL, long, many in one
/// run, and run after run of the same statement.
@Suite("HistoryStore: text parameters")
struct HistoryStoreTextBindingTests {
    private func roundTrip(_ texts: [String?], runs: Int = 1) throws -> [[String?]] {
        let db = try SQLiteDatabase(path: ":memory:")
        let columns = texts.indices.map { "c\($0)" }
        try db.execute("CREATE TABLE t(\(columns.joined(separator: ", ")))")
        let insert = try db.prepare("INSERT INTO t VALUES(\(placeholders(texts.count)))")
        for _ in 0..<runs {
            try insert.use { statement throws(SQLiteError) in
                for (offset, text) in texts.enumerated() { try statement.bind(text, at: Int32(offset + 1)) }
                try statement.step()
            }
        }
        return try db.prepare("SELECT * FROM t").use { statement throws(SQLiteError) in
            try statement.rows { row in texts.indices.map { row.text(at: Int32($0)) } }
        }
    }

    @Test func textsAreStoredAsBound() throws {
        let texts: [String?] = ["Title", "Ünïcødé ♫ 🎵", nil, "a,b;c", "x\u{1F}y"]
        #expect(try roundTrip(texts) == [texts])
    }

    @Test func anEmptyTextIsEmptyNotNull() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        let kind = try db.prepare("SELECT typeof(?1), length(?1)").use { statement throws(SQLiteError) in
            try statement.bind("", at: 1)
            return try statement.step() ? "\(statement.text(at: 0) ?? "-") \(statement.int64(at: 1))" : nil
        }
        #expect(kind == "text 0")
    }

    @Test func anEmbeddedNulDoesNotCutTheText() throws {
        let text = "before\u{0}after"
        #expect(try roundTrip([text]) == [[text]])
    }

    /// Many long texts in one run, and the same again in the next runs.
    @Test(arguments: [1, 3])
    func longTextsSurviveEveryRun(runs: Int) throws {
        let long = String(repeating: "long title ", count: 40)
        let huge = String(repeating: "é", count: 16 << 10)
        let texts: [String?] = ["short", long, "between", long + "2", huge, "after"]
        let rows = try roundTrip(texts, runs: runs)
        #expect(rows == Array(repeating: texts, count: runs))
    }

    /// A reused statement with one text filter gives each run its own answer.
    @Test func aReusedStatementSeesEachRunsTexts() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        try db.execute("CREATE TABLE t(k TEXT, v INTEGER); INSERT INTO t VALUES('one', 1), ('two', 2), ('three', 3)")
        let values = try ["three", "one", "two", "four"].map { key throws(SQLiteError) in
            try db.cachedStatement("SELECT v FROM t WHERE k = ?1").use { statement throws(SQLiteError) in
                try statement.bind(key, at: 1)
                return try statement.step() ? statement.int64(at: 0) : nil
            }
        }
        #expect(values == [3, 1, 2, nil])
    }
}
