#if canImport(Glibc)
import Glibc
#endif

/// Waits on the main thread for an async call, before GTK's loop runs: the picker reads what it
/// offers before it shows a window, and nothing else runs meanwhile.
enum Blocking {
    // @unchecked Sendable: `result` is written once by the task before it signals the semaphore,
    // and read by the waiting thread only after that.
    private final class Slot<Value: Sendable, Failure: Error>: @unchecked Sendable {
        var result: Result<Value, Failure>?
        var semaphore = sem_t()
        init() { sem_init(&semaphore, 0, 0) }
        deinit { sem_destroy(&semaphore) }
    }

    static func wait<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () async throws(Failure) -> Value
    ) -> Result<Value, Failure> {
        let slot = Slot<Value, Failure>()
        Task.detached {
            do throws(Failure) { slot.result = .success(try await body()) } catch { slot.result = .failure(error) }
            sem_post(&slot.semaphore)
        }
        while sem_wait(&slot.semaphore) != 0 && errno == EINTR {}
        // The task always stores a result before posting.
        return slot.result ?? .failure(unreachable())
    }

    private static func unreachable<Failure: Error>() -> Failure {
        preconditionFailure("a task posted without a result")
    }
}
