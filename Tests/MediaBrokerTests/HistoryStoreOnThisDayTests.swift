import Testing
@testable import MediaBroker
@testable import BrokerCore
import SwiftDBus

/// `Moments`' `on_this_day` (issue 35) against a real (in-memory) history: the same date's
/// listening day in each earlier year, nearest year first, never today nor a neighbouring date.
@Suite("HistoryStore: On this day")
struct HistoryStoreOnThisDayTests {
    typealias Days = HistoryStoreMomentsTests
    /// 2025-12-01 14:00 UTC: the afternoon of the day the query asks about.
    static let afternoon = Days.day0 + 10 * Days.hour

    /// Sessions on 1 December 2024, 2023 and 2022 (365, 731 and 1096 days before: 2024 has a
    /// 29 February), on 2 December 2024 and 2023 (364 and 730 days before), and today.
    static func store() async throws -> HistoryStore {
        try await Days.store(Days.session(day: -365, hour: 2, count: 2), Days.session(day: -365, hour: 12, count: 3, app: "vlc"),
                             Days.session(day: -731, hour: 5, count: 4), Days.session(day: -1096, hour: 15, count: 5),
                             Days.session(day: -364, hour: 1, count: 6), Days.session(day: -730, hour: 1, count: 8),
                             Days.session(hour: 1, count: 7))
    }

    @Test("each earlier year's moments of the same date, the nearest year first and newest first within it")
    func earlierYears() async throws {
        let store = try await Self.store()
        let moments = try await store.momentsPage(MomentsQuery(onThisDay: Self.afternoon), localTime: Days.utc)
        #expect(moments.map(\.assets.count) == [3, 2, 4, 5], "2024's two (the later first), 2023's, 2022's; not 2 December, not today")
    }

    @Test("the limit counts across years; an opted-out app's listens are left out; a day with none is nothing")
    func limitsAndApps() async throws {
        let store = try await Self.store()
        #expect(try await store.momentsPage(MomentsQuery(limit: 3, onThisDay: Self.afternoon), localTime: Days.utc).map(\.assets.count) == [3, 2, 4])
        #expect(try await store.momentsPage(MomentsQuery(onThisDay: Self.afternoon, excludingApps: ["vlc"]), localTime: Days.utc)
            .map(\.assets.count) == [2, 4, 5])
        let nextWeek = Self.afternoon + 7 * LocalTime.day
        #expect(try await store.momentsPage(MomentsQuery(onThisDay: nextWeek), localTime: Days.utc).isEmpty)
        #expect(try await HistoryStore.inMemory().momentsPage(MomentsQuery(onThisDay: Self.afternoon), localTime: Days.utc).isEmpty)
    }

    @Test("the filter takes an instant, and refuses since, until and before beside it")
    func filter() throws {
        #expect(try MomentsQuery(filter: ["on_this_day": .int64(Self.afternoon)]).onThisDay == Self.afternoon)
        for other in ["since", "until"] {
            #expect(throws: BusError.self) { try MomentsQuery(filter: ["on_this_day": .int64(Self.afternoon), other: .int64(0)]) }
        }
        #expect(throws: BusError.self) { try MomentsQuery(filter: ["on_this_day": .int64(Self.afternoon), "before": .string("3")]) }
        #expect(throws: BusError.self) { try MomentsQuery(filter: ["on_this_day": .string("today")]) }
    }
}
