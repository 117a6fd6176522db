import Dispatch
import Synchronization

/// Runs broker-ctl's async work on the main thread, which would otherwise only wait for it.
///
/// With `await` at the top level of `main.swift`, a command's first `await` hands it to the
/// concurrency runtime's thread pool: libdispatch starts three or four threads, and every reply
/// from the broker hops to one of them and back. For a command that makes one call that is as
/// much work as the call itself. broker-ctl does one thing at a time, so the main thread runs
/// every job: a task that prefers this executor (SE-0417) keeps its nonisolated async functions,
/// and the child tasks of its task groups, here. Code that explicitly asks for another executor
/// (`Task.sleep`'s timer, a libdispatch source) still works; it simply is not kept here.
final class MainThreadExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        var exitCode: Int32?
    }

    private let state = Mutex(State())
    /// Signalled once per job enqueued and once at the end; the main thread waits on it when idle.
    private let wakeUp = DispatchSemaphore(value: 0)

    private init() {}

    /// Runs `body` to its end with every job on the calling thread, and returns its result.
    static func run(_ body: @escaping @Sendable () async -> Int32) -> Int32 {
        let executor = MainThreadExecutor()
        Task(executorPreference: executor) {
            let code = await body()
            executor.state.withLock { $0.exitCode = code }
            executor.wakeUp.signal()
        }
        return executor.runUntilDone()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.jobs.append(job) }
        wakeUp.signal()
    }

    private func runUntilDone() -> Int32 {
        while true {
            let (jobs, exitCode) = state.withLock { state -> ([UnownedJob], Int32?) in
                defer { state.jobs.removeAll(keepingCapacity: true) }
                return (state.jobs, state.exitCode)
            }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            if let exitCode { return exitCode }
            if jobs.isEmpty { wakeUp.wait() }
        }
    }
}
