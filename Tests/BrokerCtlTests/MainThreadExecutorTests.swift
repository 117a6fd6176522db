import Foundation
import Synchronization
import Testing
@testable import broker_ctl

/// broker-ctl runs its async work on the thread that called `MainThreadExecutor.run`, without the
/// concurrency runtime's thread pool.
@Suite struct MainThreadExecutorTests {
    @Test func everyJobRunsOnTheCallingThreadEvenAfterAResumeFromAnotherThread() {
        let caller = pthread_self()
        let threads = Mutex<[pthread_t]>([])
        let code = MainThreadExecutor.run {
            threads.withLock { $0.append(pthread_self()) }
            // Resumed from a thread of its own, as a reply from the bus connection's thread is.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread { continuation.resume() }
            }
            threads.withLock { $0.append(pthread_self()) }
            // Child tasks (FollowCommand's task group) inherit the executor.
            await withTaskGroup(of: pthread_t.self) { group in
                group.addTask { pthread_self() }
                for await child in group { threads.withLock { $0.append(child) } }
            }
            return 7
        }
        #expect(code == 7)
        let seen = threads.withLock { $0 }
        #expect(seen.count == 3)
        #expect(seen.allSatisfy { pthread_equal($0, caller) != 0 }, "a job ran on another thread")
    }
}
