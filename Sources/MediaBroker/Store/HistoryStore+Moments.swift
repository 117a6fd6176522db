extension HistoryStore {
    /// Runs a read on the store's thread: for a store in memory, or when the reader cannot answer.
    func read<Answer: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) throws(SQLiteError) -> Answer,
                                completion: @escaping @Sendable (Result<Answer, StoreError>) -> Void) {
        perform({ database throws(StoreError) in try database.sql { () throws(SQLiteError) in try body(database.connection) } },
                completion: completion)
    }

    /// The moments `query` asks for, newest first; `.unknownCursor` when `query.before` names no asset.
    func moments(_ query: MomentsQuery, localTime: LocalTime) async throws(StoreError) -> [Moment] {
        let answer = try await bridge { read({ connection throws(SQLiteError) in try connection.moments(query, localTime: localTime) }, completion: $0) }
        guard let answer else { throw .unknownCursor(query.before ?? 0) }
        return answer
    }
}
