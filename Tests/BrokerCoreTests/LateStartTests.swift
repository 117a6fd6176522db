import Testing
@testable import BrokerCore
import CoreFixtures

/// Issue 17 §4 without a bus: when a player met already playing began.
@Suite("LateStart: a player met already playing began when its position says")
struct LateStartTests {
    func began(position: Microseconds?, rate: Double = 1, length: Microseconds? = 200 * second, metAt: Double = 100,
               following: Double = 0, now: Double = 100.05) -> Microseconds? {
        LateStart.began(position: position, rate: rate, length: length, metAt: at(metAt), followingSince: at(following), now: at(now))
    }

    @Test("Chromium's late name: the listen began its position ago, at its rate")
    func backdated() {
        #expect(began(position: 2_676_628) == at(100.05) - 2_676_628)
        #expect(began(position: 4 * second, rate: 2) == at(100.05) - 2 * second)
    }

    @Test("not backdated: a first Playing long after the player was met, no position, none heard, a stopped rate")
    func notBackdated() {
        #expect(began(position: 3 * second, now: 103) == nil)
        #expect(began(position: nil) == nil)
        #expect(began(position: 0) == nil)
        #expect(began(position: 3 * second, rate: 0) == nil)
    }

    @Test("bounded: never at or past the track's end, never more than ten seconds of playing, never before the broker followed the bus")
    func bounded() {
        #expect(began(position: 30 * second, length: 20 * second) == nil)
        #expect(began(position: 6_002_902, length: 6_002_902) == nil, "where the previous track ended, not a late start")
        #expect(began(position: 5_500_000, length: 6_002_902) == nil)
        #expect(began(position: 4_000_000, length: 6_002_902) == at(100.05) - 4_000_000)
        #expect(began(position: 20 * 60 * second, length: 3600 * second) == nil, "a podcast resumed at minute 20")
        #expect(began(position: 10 * second) == at(90.05))
        #expect(began(position: 11 * second) == nil)
        #expect(began(position: 8 * second, following: 99) == at(99))
        #expect(began(position: 8 * second, following: 200) == at(100.05), "a broker clock ahead of now: never in the future")
    }
}
