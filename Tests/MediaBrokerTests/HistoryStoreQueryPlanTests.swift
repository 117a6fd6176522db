import Testing
@testable import MediaBroker
@testable import BrokerCore

/// RecentMedia must stay a range scan on an index in its own order at a million assets (issue 7):
/// these pin the plan SQLite chooses for every query shape.
@Suite("HistoryStore: query plans")
struct HistoryStoreQueryPlanTests {
    static let shapes: [(String, RecentQuery, Bool)] = [
        ("newest", RecentQuery(), false),
        ("window", RecentQuery(since: 1, until: 2), false),
        ("since", RecentQuery(since: 1), false),
        ("until", RecentQuery(until: 2), false),
        ("cursor", RecentQuery(), true),
        ("window and cursor", RecentQuery(since: 1, until: 2), true),
        ("app", RecentQuery(appID: "mpv"), false),
        ("app window", RecentQuery(since: 1, until: 2, appID: "mpv"), false),
        ("app window cursor", RecentQuery(since: 1, until: 2, appID: "mpv"), true),
        ("excluded", RecentQuery(excludingApps: ["vlc", "spotify"]), false),
        ("excluded window cursor", RecentQuery(since: 1, until: 2, excludingApps: ["vlc"]), true),
    ]

    @Test(arguments: 0..<shapes.count)
    func everyRecentShapeIsAnIndexWalkWithoutSorting(_ index: Int) async throws {
        let (name, query, withCursor) = Self.shapes[index]
        let store = try HistoryStore.inMemory()
        try await fill(store, count: 50, apps: ["mpv", "vlc"])
        let text = HistoryReads.recentSQL(query, cursor: withCursor ? (5, 5) : nil, limit: 50).sql
        let plan = try await store.queryPlan(text)
        let joined = plan.joined(separator: " | ")
        let expectedIndex = query.appID == nil ? "assets_by_started" : "assets_by_app"
        #expect(joined.contains("USING INDEX \(expectedIndex)"), "\(name): \(joined)")
        #expect(!joined.contains("TEMP B-TREE"), "\(name): \(joined)")
        let constrained = query.since != nil || query.until != nil || withCursor || query.appID != nil
        if constrained {
            #expect(joined.contains("SEARCH assets USING INDEX"), "\(name): \(joined)")
        }
    }

    @Test func theCursorBoundIsPartOfTheIndexRange() async throws {
        let store = try HistoryStore.inMemory()
        let text = HistoryReads.recentSQL(RecentQuery(), cursor: (5, 5), limit: 50).sql
        let plan = try await store.queryPlan(text)
        // SQLite 3.40 bounds the index by the row value's first column (the `id` half is the rowid,
        // checked only on the rows that share the cursor's `started`); paging tests pin the ties.
        #expect(plan == ["SEARCH assets USING INDEX assets_by_started (started<?)"], "\(plan)")
    }

    @Test(arguments: [PurgeScope.app("mpv"), .range(since: 1, until: 2), .range(since: nil, until: 2), .all])
    func purgeAndRetentionSelectThroughAnIndex(_ scope: PurgeScope) async throws {
        let store = try HistoryStore.inMemory()
        let text = HistoryDatabase.purgeSQL(scope).sql
        let plan = try await store.queryPlan(text).joined(separator: " | ")
        #expect(plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
    }

    @Test func momentsGroupADayFromTheIndexAlone() async throws {
        let store = try HistoryStore.inMemory()
        let plan = try await store.queryPlan(HistoryReads.spansSQL(MomentsQuery()).sql)
        #expect(plan == ["SEARCH assets USING COVERING INDEX assets_by_started (started>? AND started<?)"], "\(plan)")
        for query in [MomentsQuery(appID: "mpv"), MomentsQuery(excludingApps: ["vlc"])] {
            let shaped = try await store.queryPlan(HistoryReads.spansSQL(query).sql).joined(separator: " | ")
            #expect(shaped.contains("USING") && !shaped.contains("TEMP B-TREE"), "\(shaped)")
        }
    }

    @Test func theOldestAssetIsOneIndexProbe() async throws {
        let store = try HistoryStore.inMemory()
        let plan = try await store.queryPlan("SELECT min(started) FROM assets")
        #expect(plan.joined().contains("INDEX"), "\(plan)")
    }
}
