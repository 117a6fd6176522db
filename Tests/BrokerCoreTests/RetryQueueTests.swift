import Testing
@testable import BrokerCore

/// Records the store refused for now (a full disk), without a bus or a store: kept in order,
/// retried by one timer at a time with a growing delay, bounded.
@Suite("RetryQueue: records kept while the disk refuses them")
struct RetryQueueTests {
    @Test("the first refusal arms a timer; more wait for it; the timer gives them all back in order")
    func oneTimer() {
        var queue = RetryQueue<Int>()
        let outcomes = [queue.refused(1), queue.refused(2), queue.refused(3)]
        #expect(outcomes == [.keptArmTimer(after: .seconds(1)), .kept, .kept])
        let retried = queue.takeForRetry()
        #expect(retried == [1, 2, 3])
        #expect(queue.waiting.isEmpty && !queue.isTimerArmed)
    }

    @Test("while the disk keeps refusing, each timer waits twice as long, up to a minute; a record stored starts over")
    func backOff() {
        var queue = RetryQueue<Int>()
        var delays: [Duration] = []
        for attempt in 0..<8 {
            if case .keptArmTimer(let delay) = queue.refused(attempt) { delays.append(delay) }
            _ = queue.takeForRetry()
        }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
        let recovered = queue.stored(), again = queue.stored()
        #expect(recovered, "the store had been refusing")
        #expect(!again)
        let next = queue.refused(9)
        #expect(next == .keptArmTimer(after: .seconds(1)))
    }

    @Test("past the bound a refused record is dropped, the others keep waiting")
    func bounded() {
        var queue = RetryQueue<Int>()
        for record in 0..<RetryQueue<Int>.maximum { _ = queue.refused(record) }
        let extra = queue.refused(-1)
        #expect(extra == .dropped)
        #expect(queue.waiting.count == RetryQueue<Int>.maximum)
        let all = queue.takeAll()
        #expect(all.first == 0)
        #expect(queue.waiting.isEmpty && !queue.isTimerArmed)
    }
}
