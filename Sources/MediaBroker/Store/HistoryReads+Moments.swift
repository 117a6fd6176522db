import BrokerCore

/// Answering `Moments`: the history is read one listening day at a time, newest first. A day's
/// listens are grouped (``MomentGrouping``) from their times alone, always the whole day, so a
/// moment is the same whichever query finds it; only the moments that make the page are read whole.
extension HistoryReads {
    /// The moments `query` asks for, newest first; `nil` when `query.before` names no asset.
    func moments(_ query: MomentsQuery, localTime: LocalTime) throws(SQLiteError) -> [Moment]? {
        if let instant = query.onThisDay { return try moments(onThisDay: instant, query, localTime) }
        var moments: [Moment] = []
        var searchBelow = query.until ?? .max
        // Moments must begin before this: `until`, or the moment the cursor names.
        var beginBefore = query.until ?? .max
        if let before = query.before {
            guard let started = try startedOfAsset(before) else { return nil }
            let day = localTime.dayStart(containing: started)
            let holding = try runs(ofDayStartingAt: day, query, localTime).first { $0.contains { $0.id == before } }
            beginBefore = min(beginBefore, holding?.first?.started ?? started)
            searchBelow = min(searchBelow, Self.nextDay(after: day, localTime))
        }
        while moments.count < query.limit, let newest = try newestStarted(below: searchBelow, query) {
            if let since = query.since, newest < since { break }
            let day = localTime.dayStart(containing: newest)
            for run in try runs(ofDayStartingAt: day, query, localTime).reversed() where moments.count < query.limit {
                guard let first = run.first, first.started < beginBefore, first.started >= (query.since ?? .min) else { continue }
                moments.append(Moment(try assets(of: run)[...], localTime: localTime))
            }
            searchBelow = day
        }
        return moments
    }

    /// "On this day": each earlier year's listening day on the same date, nearest year first, each
    /// read as a `since`…`until` query would read it, back to the oldest listen kept.
    private func moments(onThisDay instant: Microseconds, _ query: MomentsQuery, _ localTime: LocalTime) throws(SQLiteError) -> [Moment] {
        guard let oldest = try oldestStarted(query) else { return [] }
        let today = localTime.dayStart(containing: instant)
        // A year has at least 365 days: this many years reach back past the oldest listen.
        let years = max(1, Int((today - oldest) / (365 * LocalTime.day)) + 1)
        var moments: [Moment] = []
        for day in OnThisDay.days(sameDateAs: today, localTime: localTime, years: 1...years) where moments.count < query.limit {
            guard day.until > oldest else { break }
            var year = query
            (year.onThisDay, year.since, year.until, year.limit) = (nil, day.since, day.until, query.limit - moments.count)
            moments += try self.moments(year, localTime: localTime) ?? []
        }
        return moments
    }

    private static func nextDay(after day: Microseconds, _ localTime: LocalTime) -> Microseconds {
        // Three hours past a day's length lands in the next day whether DST made this one 23 or 25 hours.
        localTime.dayStart(containing: day + LocalTime.day + 3 * LocalTime.hour)
    }

    /// The day's moments as runs of listens' times, oldest first.
    private func runs(ofDayStartingAt day: Microseconds, _ query: MomentsQuery, _ localTime: LocalTime) throws(SQLiteError) -> [ArraySlice<StoredSpan>] {
        let (text, values) = Self.spansSQL(query)
        let spans = try connection.cachedStatement(text).use { statement throws(SQLiteError) in
            try statement.bind([.integer(day), .integer(Self.nextDay(after: day, localTime))] + values)
            return try statement.rows(reservingCapacity: 64) { row throws(SQLiteError) in
                StoredSpan(id: row.int64(at: 0), started: row.int64(at: 1), ended: row.int64(at: 2))
            }
        }
        return MomentGrouping.group(spans, gap: query.gap)
    }

    /// The times of a day's listens (bound: the day's start and the next day's, then `values`).
    static func spansSQL(_ query: MomentsQuery) -> (sql: String, values: [SQLiteValue]) {
        let (filter, values) = Self.filter(query)
        return ("SELECT id, started, ended FROM assets WHERE started >= ? AND started < ?\(filter) ORDER BY started, id", values)
    }

    /// A run's assets, read whole, oldest first.
    private func assets(of run: ArraySlice<StoredSpan>) throws(SQLiteError) -> [MediaAsset] {
        guard let first = run.first, let last = run.last else { return [] }
        let ids = Set(run.lazy.map { $0.id })
        let text = "SELECT \(AssetColumns.storedList) FROM assets WHERE started >= ?1 AND started <= ?2 ORDER BY started, id"
        return try connection.cachedStatement(text).use { statement throws(SQLiteError) in
            try statement.bind([.integer(first.started), .integer(last.started)])
            var decoder = AssetColumns.Decoder(artworkFolder: artworkFolder)
            var assets: [MediaAsset] = []
            assets.reserveCapacity(run.count)
            // Other apps' listens (or filtered ones) that share the run's first or last start are skipped.
            while try statement.step() {
                if ids.contains(statement.int64(at: 0)) { assets.append(try decoder.readStored(statement)) }
            }
            return assets
        }
    }

    private func oldestStarted(_ query: MomentsQuery) throws(SQLiteError) -> Microseconds? {
        let (filter, values) = Self.filter(query)
        let text = "SELECT started FROM assets WHERE 1\(filter) ORDER BY started LIMIT 1"
        return try connection.cachedStatement(text).use { statement throws(SQLiteError) in
            try statement.bind(values)
            return try statement.step() ? statement.int64(at: 0) : nil
        }
    }

    private func newestStarted(below bound: Microseconds, _ query: MomentsQuery) throws(SQLiteError) -> Microseconds? {
        let (filter, values) = Self.filter(query)
        return try connection.cachedStatement("SELECT started FROM assets WHERE started < ?\(filter) ORDER BY started DESC LIMIT 1").use { statement throws(SQLiteError) in
            try statement.bind([.integer(bound)] + values)
            return try statement.step() ? statement.int64(at: 0) : nil
        }
    }

    /// The app conditions, as `RecentMedia` writes them.
    private static func filter(_ query: MomentsQuery) -> (String, [SQLiteValue]) {
        if let appID = query.appID { return (" AND app_id = ?", [.text(appID)]) }
        guard !query.excludingApps.isEmpty else { return ("", []) }
        return (" AND app_id NOT IN (\(placeholders(query.excludingApps.count)))", query.excludingApps.sorted().map(SQLiteValue.text))
    }

    /// The assets with these ids, in the order asked, skipping ids the history does not hold and
    /// assets of `excludingApps`.
    func assets(ids: [Int64], excludingApps: Set<String>) throws(SQLiteError) -> [MediaAsset] {
        try connection.cachedStatement("SELECT \(AssetColumns.storedList) FROM assets WHERE id = ?1").use { statement throws(SQLiteError) in
            var decoder = AssetColumns.Decoder(artworkFolder: artworkFolder)
            var found: [MediaAsset] = []
            for id in ids {
                statement.reset()
                try statement.bind(id, at: 1)
                guard try statement.step() else { continue }
                let asset = try decoder.readStored(statement)
                if !excludingApps.contains(asset.appID) { found.append(asset) }
            }
            return found
        }
    }
}
