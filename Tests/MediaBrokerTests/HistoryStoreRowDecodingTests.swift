import Testing
@testable import MediaBroker
@testable import BrokerCore

/// A page of assets is decoded straight from SQLite's bytes, sharing the strings of the columns
/// that repeat from row to row (`AssetColumns.Decoder`): every row must read exactly as if it were
/// decoded alone, whatever the rows before it held.
@Suite("HistoryStore: decoding rows")
struct HistoryStoreRowDecodingTests {
    /// Rows where the app columns repeat, change, go back, and go missing.
    static let assets: [MediaAsset] = [
        MediaAsset(title: "One", artists: ["A"], album: "X", appID: "mpv", appName: "mpv", appIcon: "mpv",
                   started: 1, ended: 2, listened: 1, kind: .music, source: .mpris),
        MediaAsset(title: "Two", artists: ["A", "B"], album: "X", appID: "mpv", appName: "mpv", appIcon: "mpv",
                   started: 2, ended: 3, listened: 1, kind: .music, source: .mpris),
        MediaAsset(title: "Three", artists: [], appID: "org.gnome.Lollypop", appName: nil, appIcon: nil,
                   started: 3, ended: 4, listened: 1, kind: .podcast, source: .donation),
        MediaAsset(title: "Four", artists: ["Ünïcødé ♫"], album: "Ünïcødé ♫", appID: "mpv", appName: "mpv",
                   appIcon: "mpv", started: 4, ended: 5, listened: 1, kind: nil, source: .mpris),
        MediaAsset(title: "Five", artists: ["C"], appID: "mpvv", appName: "mpv2", appIcon: "mp",
                   started: 5, ended: 6, listened: 1, kind: .music, source: .mpris),
    ]

    @Test func aPageReadsAsEachRowAlone() async throws {
        let store = try HistoryStore.inMemory()
        var expected: [MediaAsset] = []
        for asset in Self.assets {
            let outcome = try await answer { store.insert(asset, completion: $0) }
            expected.append(stored(asset, id: outcome.id))
            // Each asset alone: the newest, a page of one.
            #expect(try await store.recentPage(RecentQuery(limit: 1)) == [expected.last])
        }
        #expect(try await store.recentPage(RecentQuery()) == expected.reversed())
    }

    /// Bytes that are not UTF-8 (a file written by something else) are repaired the same way in
    /// every row, whether the row before held the same bytes or not.
    @Test func bytesThatAreNotUTF8AreRepairedInEveryRow() async throws {
        let store = try HistoryStore.inMemory()
        try await store.inspect { database throws(SQLiteError) in
            try database.connection.execute("""
                INSERT INTO assets(started, ended, listened, title, artists, app_id, app_name, source)
                VALUES (1, 2, 1, 'a', CAST(X'41FF1F42' AS TEXT), CAST(X'6D70FF' AS TEXT), CAST(X'C3' AS TEXT), 'mpris'),
                       (2, 3, 1, 'b', NULL, CAST(X'6D70FF' AS TEXT), CAST(X'C3' AS TEXT), 'mpris'),
                       (3, 4, 1, 'c', NULL, 'mp' || char(65533), 'x', 'mpris')
                """)
        }
        let page = try await store.recentPage(RecentQuery())
        #expect(page.map(\.appID) == ["mp\u{FFFD}", "mp\u{FFFD}", "mp\u{FFFD}"])
        #expect(page.map(\.appName) == ["x", "\u{FFFD}", "\u{FFFD}"])
        #expect(page.last?.artists == ["A\u{FFFD}", "B"])
    }

    @Test(arguments: [
        ("", [String]()),
        ("A", ["A"]),
        ("A\u{1F}B", ["A", "B"]),
        ("\u{1F}A\u{1F}\u{1F}B\u{1F}", ["A", "B"]),
        ("\u{1F}", []),
        ("Crosby, Stills\u{1F}Zoë", ["Crosby, Stills", "Zoë"]),
    ])
    func storedArtistsSplitOnTheSeparatorAndDropEmptyNames(_ stored: String, _ names: [String]) {
        #expect(AssetColumns.decodeArtists(stored) == names)
    }

    @Test func noStoredArtistsAreNone() {
        #expect(AssetColumns.decodeArtists(nil as String?) == [])
    }

    @Test func aNullInANotNullColumnIsCorruptionNotACrash() async throws {
        let store = try HistoryStore.inMemory()
        _ = try await answer { store.insert(makeAsset(), completion: $0) }
        await #expect(throws: StoreError.self) {
            try await store.inspect { database throws(SQLiteError) in
                let statement = try database.connection.prepare(
                    "SELECT id, started, ended, listened, length, title, artists, album, NULL, app_name, app_icon, kind, source FROM assets")
                var decoder = AssetColumns.Decoder(artworkFolder: nil)
                return try statement.use { statement throws(SQLiteError) in
                    try statement.rows { row throws(SQLiteError) in try decoder.readStored(row) }
                }
            }
        }
    }
}

extension AssetColumns {
    /// The artists column's decoding, from a stored value given as a string.
    static func decodeArtists(_ stored: String?) -> [String] {
        guard var stored else { return [] }
        return stored.withUTF8 { decodeArtists($0) }
    }
}
