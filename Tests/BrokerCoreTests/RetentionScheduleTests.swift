import Testing
@testable import BrokerCore

/// When retention runs, without a timer: after a run, when the oldest asset expires but at most
/// hourly; after a store, only when nothing is planned.
@Suite("RetentionSchedule: when old assets are deleted")
struct RetentionScheduleTests {
    static let hour = RetentionSchedule.interval
    static let day: Microseconds = 24 * hour

    @Test("after a run, the next is when the oldest asset kept expires")
    func oldestExpires() {
        var schedule = RetentionSchedule()
        schedule.running()
        #expect(schedule.ran(at: 100 * Self.day, oldest: 95 * Self.day, window: 7 * Self.day) == 102 * Self.day)
    }

    @Test("never sooner than an hour after the last run")
    func atMostHourly() {
        var schedule = RetentionSchedule()
        #expect(schedule.ran(at: 100 * Self.day, oldest: 93 * Self.day, window: 7 * Self.day) == 100 * Self.day + Self.hour)
    }

    @Test("with nothing left, nothing is planned until an asset is stored")
    func nothingLeft() {
        var schedule = RetentionSchedule()
        #expect(schedule.ran(at: 100 * Self.day, oldest: nil, window: 7 * Self.day) == nil)
        #expect(schedule.due == nil)
        #expect(schedule.stored(started: 100 * Self.day, window: 7 * Self.day, now: 100 * Self.day) == 107 * Self.day)
    }

    @Test("a stored asset plans nothing when a run is planned already, or when everything is kept forever")
    func storedWhilePlanned() {
        var schedule = RetentionSchedule()
        #expect(schedule.stored(started: 0, window: nil, now: 0) == nil)
        _ = schedule.ran(at: 100 * Self.day, oldest: 99 * Self.day, window: 7 * Self.day)
        #expect(schedule.stored(started: 100 * Self.day, window: 7 * Self.day, now: 100 * Self.day) == nil)
        schedule.running()
        #expect(schedule.due == nil)
    }
}
