import Testing
@testable import MediaBroker
@testable import BrokerCore

/// `Moments` against a real (in-memory) history: days read whole, newest first, paging with
/// `before`, filters and opted-out apps shaping moments, a purged asset leaving its moment.
@Suite("HistoryStore: Moments queries")
struct HistoryStoreMomentsTests {
    static let minute: Microseconds = 60_000_000
    static let hour = LocalTime.hour
    /// 2025-12-01 04:00 UTC: a day's start in UTC.
    static let day0: Microseconds = 1_764_561_600_000_000
    static let utc = LocalTime.fixed(hours: 0)

    /// Listens of four minutes back to back from `hour` past the day's start (day `day` after day0).
    static func session(day: Int64 = 0, hour: Int64, count: Int, app: String = "mpv", album: String = "Album") -> [MediaAsset] {
        (0..<count).map { index in
            let started = day0 + day * LocalTime.day + hour * Self.hour + Int64(index) * 4 * minute
            return MediaAsset(title: "Track \(day)-\(hour)-\(index)", artists: ["Artist"], album: album, appID: app,
                              started: started, ended: started + 4 * minute, listened: 4 * minute, kind: .music, source: .mpris)
        }
    }

    static func store(_ sessions: [MediaAsset]...) async throws -> HistoryStore {
        let store = try HistoryStore.inMemory()
        _ = try await answer { store.insert(contentsOf: sessions.flatMap { $0 }, completion: $0) }
        return store
    }

    @Test("moments newest first, across days, each whole")
    func newestFirst() async throws {
        let store = try await Self.store(Self.session(hour: 2, count: 3), Self.session(hour: 10, count: 4), Self.session(day: 1, hour: 1, count: 2))
        let moments = try await store.momentsPage(MomentsQuery(), localTime: Self.utc)
        #expect(moments.map(\.assets.count) == [2, 4, 3])
        #expect(moments.map(\.started) == moments.map(\.started).sorted(by: >))
    }

    @Test("limit, then the next page from the last moment's id, without repeats or gaps")
    func paging() async throws {
        let store = try await Self.store(Self.session(hour: 1, count: 2), Self.session(hour: 5, count: 2),
                                         Self.session(hour: 9, count: 2), Self.session(day: 1, hour: 3, count: 2))
        let all = try await store.momentsPage(MomentsQuery(), localTime: Self.utc)
        var pages: [[Moment]] = []
        var query = MomentsQuery(limit: 1)
        while true {
            let page = try await store.momentsPage(query, localTime: Self.utc)
            if page.isEmpty { break }
            pages.append(page)
            query.before = Int64(page.last?.id ?? "")
        }
        #expect(pages.flatMap { $0 } == all && all.count == 4)
        do {
            _ = try await store.momentsPage(MomentsQuery(before: 999_999), localTime: Self.utc)
            Issue.record("an unknown cursor was answered")
        } catch {
            #expect(error == .unknownCursor(999_999))
        }
    }

    @Test("since and until choose moments by when they began; a moment is never cut by them")
    func window() async throws {
        let store = try await Self.store(Self.session(hour: 10, count: 10))
        let from = Self.day0 + 10 * Self.hour + 8 * Self.minute
        #expect(try await store.momentsPage(MomentsQuery(since: from), localTime: Self.utc).isEmpty)
        let moments = try await store.momentsPage(MomentsQuery(until: from), localTime: Self.utc)
        #expect(moments.map(\.assets.count) == [10])
    }

    @Test("an opted-out app's listens are left out before grouping, and the app filter keeps one app's")
    func apps() async throws {
        // mpv, then vlc in the silence, then mpv again: vlc joins the two runs.
        let store = try await Self.store(Self.session(hour: 10, count: 2, app: "mpv"),
                                         Self.session(hour: 10, count: 10, app: "vlc").dropFirst(2).map { $0 },
                                         [Self.session(hour: 11, count: 1, app: "mpv")[0]])
        #expect(try await store.momentsPage(MomentsQuery(), localTime: Self.utc).map(\.assets.count) == [11])
        let withoutVLC = try await store.momentsPage(MomentsQuery(excludingApps: ["vlc"]), localTime: Self.utc)
        #expect(withoutVLC.map(\.assets.count) == [1, 2] && withoutVLC.allSatisfy { $0.appIDs == ["mpv"] })
        #expect(try await store.momentsPage(MomentsQuery(appID: "vlc"), localTime: Self.utc).map(\.appIDs) == [["vlc"]])
    }

    @Test("a purged asset leaves its moment; a moment emptied is gone")
    func purged() async throws {
        let store = try await Self.store(Self.session(hour: 1, count: 1, app: "vlc"), Self.session(hour: 10, count: 3))
        #expect(try await store.momentsPage(MomentsQuery(), localTime: Self.utc).count == 2)
        _ = try await store.purgedIDs(.app("vlc"))
        _ = try await store.purgedIDs(.range(since: Self.day0 + 10 * Self.hour, until: Self.day0 + 10 * Self.hour + Self.minute))
        let moments = try await store.momentsPage(MomentsQuery(), localTime: Self.utc)
        #expect(moments.map(\.assets.count) == [2])
    }

    @Test("a moment's id stays as it grows")
    func stableID() async throws {
        let store = try await Self.store(Self.session(hour: 10, count: 3))
        let before = try #require(try await store.momentsPage(MomentsQuery(), localTime: Self.utc).first)
        _ = try await answer { store.insert(Self.session(hour: 10, count: 5).last!, completion: $0) }
        let after = try #require(try await store.momentsPage(MomentsQuery(), localTime: Self.utc).first)
        #expect(before.id == after.id && after.assets.count == 4)
    }
}
