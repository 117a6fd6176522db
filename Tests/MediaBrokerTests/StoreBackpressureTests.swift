import Synchronization
import Testing
@testable import MediaBroker

/// Issue 16 §1: the broker stops reading the bus while the store is far behind, and reads again
/// once it has caught up to half of that — not at the first job done, which would flap.
@Suite struct StoreBackpressureTests {
    final class Queue: Sendable {
        let jobs = Atomic<Int>(0)
    }

    @Test func readingPausesAtTheLimitAndResumesBelowHalfOfIt() {
        let queue = Queue()
        let gate = StoreBackpressure(limit: 100, log: Log(threshold: .error, environment: [:])) {
            queue.jobs.load(ordering: .relaxed)
        }
        let answers = [0, 99, 100, 250, 99, 51, 50, 49, 99, 100].map { depth in
            queue.jobs.store(depth, ordering: .relaxed)
            return gate.mayRead()
        }
        #expect(answers == [true, true, false, false, false, false, false, true, true, false])
    }
}
