extension HistoryStore {
    /// The moments `query` asks for, newest first, on the store's thread (a store in memory, or when
    /// the reader cannot answer); `.unknownCursor` when `query.before` names no asset.
    func moments(_ query: MomentsQuery, localTime: LocalTime, completion: @escaping Completion<[Moment]>) {
        perform({ database throws(StoreError) in
            guard let moments = try database.sql({ () throws(SQLiteError) in try database.connection.moments(query, localTime: localTime) })
            else { throw .unknownCursor(query.before ?? 0) }
            return moments
        }, completion: completion)
    }

    func moments(_ query: MomentsQuery, localTime: LocalTime) async throws(StoreError) -> [Moment] {
        try await bridge { moments(query, localTime: localTime, completion: $0) }
    }
}
