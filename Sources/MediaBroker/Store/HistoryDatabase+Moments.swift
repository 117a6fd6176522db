/// Answering `Moments`: the history is read one listening day at a time, newest first, and each
/// day's listens are grouped (``MomentGrouping``) until the page is full. A day is always read
/// whole, so a moment is the same whichever query finds it.
extension SQLiteDatabase {
    /// The moments `query` asks for, newest first; `nil` when `query.before` names no asset.
    func moments(_ query: MomentsQuery, localTime: LocalTime) throws(SQLiteError) -> [Moment]? {
        var moments: [Moment] = []
        var searchBelow = query.until ?? .max
        // Moments must begin before this: `until`, or the moment the cursor names.
        var beginBefore = query.until ?? .max
        if let before = query.before {
            guard let started = try startedOfAsset(before) else { return nil }
            let day = localTime.dayStart(containing: started)
            let holding = try momentsOfDay(startingAt: day, query, localTime).first { $0.assets.contains { $0.id == before } }
            beginBefore = min(beginBefore, holding?.started ?? started)
            searchBelow = min(searchBelow, Self.nextDay(after: day, localTime))
        }
        while moments.count < query.limit, let newest = try newestStarted(below: searchBelow, query) {
            if let since = query.since, newest < since { break }
            let day = localTime.dayStart(containing: newest)
            for moment in try momentsOfDay(startingAt: day, query, localTime).reversed()
            where moment.started < beginBefore && moment.started >= (query.since ?? .min) && moments.count < query.limit {
                moments.append(moment)
            }
            searchBelow = day
        }
        return moments
    }

    private static func nextDay(after day: Microseconds, _ localTime: LocalTime) -> Microseconds {
        // Three hours past a day's length lands in the next day whether DST made this one 23 or 25 hours.
        localTime.dayStart(containing: day + LocalTime.day + 3 * LocalTime.hour)
    }

    private func momentsOfDay(startingAt day: Microseconds, _ query: MomentsQuery, _ localTime: LocalTime) throws(SQLiteError) -> [Moment] {
        let (filter, values) = Self.filter(query)
        let text = "SELECT \(AssetColumns.storedList) FROM assets WHERE started >= ? AND started < ?\(filter) ORDER BY started, id"
        let assets = try cachedStatement(text).use { statement throws(SQLiteError) in
            try statement.bind([.integer(day), .integer(Self.nextDay(after: day, localTime))] + values)
            var decoder = AssetColumns.Decoder(artworkFolder: ArtworkFolder.path(besideDatabase: path))
            return try statement.rows(reservingCapacity: 64) { row throws(SQLiteError) in try decoder.readStored(row) }
        }
        return MomentGrouping.group(assets, gap: query.gap).map { Moment($0, localTime: localTime) }
    }

    private func newestStarted(below bound: Microseconds, _ query: MomentsQuery) throws(SQLiteError) -> Microseconds? {
        let (filter, values) = Self.filter(query)
        return try cachedStatement("SELECT started FROM assets WHERE started < ?\(filter) ORDER BY started DESC LIMIT 1").use { statement throws(SQLiteError) in
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
}

extension SQLiteDatabase {
    /// The assets with these ids, in the order asked, skipping ids the history does not hold and
    /// assets of `excludingApps`.
    func assets(ids: [Int64], excludingApps: Set<String>) throws(SQLiteError) -> [MediaAsset] {
        try cachedStatement("SELECT \(AssetColumns.storedList) FROM assets WHERE id = ?1").use { statement throws(SQLiteError) in
            var decoder = AssetColumns.Decoder(artworkFolder: ArtworkFolder.path(besideDatabase: path))
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
