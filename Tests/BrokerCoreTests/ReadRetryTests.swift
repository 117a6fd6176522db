import Testing
@testable import BrokerCore

/// Issue 17 §1: a read of a player's object that failed (the object is not exported yet) is asked
/// again soon, then less often, and given up on after a bounded time.
@Suite struct ReadRetryTests {
    @Test("the first retry is soon, each later one waits twice as long, up to the longest delay")
    func backsOff() {
        var retry = ReadRetry()
        var delays: [Microseconds] = []
        var now: Microseconds = 1_000_000
        for _ in 0..<8 {
            guard let delay = retry.failed(at: now) else { break }
            delays.append(delay)
            now += delay
        }
        #expect(delays == [50_000, 100_000, 200_000, 400_000, 800_000, 1_600_000, 2_000_000, 2_000_000])
    }

    @Test("no retry once the patience since the first failure has passed")
    func givesUp() {
        var retry = ReadRetry()
        #expect(retry.failed(at: 0) != nil)
        #expect(retry.failed(at: ReadRetry.patience - 1) != nil)
        #expect(retry.failed(at: ReadRetry.patience) == nil)
    }

    @Test("a hung player (each read times out after 5 s) is given up on after three tries")
    func timeouts() {
        var retry = ReadRetry()
        var now: Microseconds = 5_000_000
        var reads = 1
        while let delay = retry.failed(at: now) {
            now += delay + 5_000_000
            reads += 1
        }
        #expect(reads == 3)
    }

    @Test("a clock that steps back never traps and keeps retrying within patience")
    func clockBackwards() {
        var retry = ReadRetry()
        #expect(retry.failed(at: .max) != nil)
        #expect(retry.failed(at: .min) != nil)
    }
}
