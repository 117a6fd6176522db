internal import Glibc
import Synchronization

/// The store's own thread: it owns the database and runs jobs one at a time, in submission order.
///
/// Why a thread of its own rather than an actor or the cooperative pool: every job may block on
/// `fsync` or on another process's lock for milliseconds to seconds. Blocking a cooperative thread
/// stalls unrelated tasks (on 2 cores, half the pool), and the daemon's D-Bus loop must never wait on
/// disk. A dedicated thread that sleeps in `sem_wait` when idle costs no wake-ups and no CPU, and
/// confines the `NOMUTEX` connection to one thread by construction.
///
/// The queue is a `Mutex`-guarded array; a semaphore is posted only when the thread has said it is
/// going to sleep, so a busy queue costs no system calls per job.
// @unchecked Sendable: the mutable state is inside `state` (a Mutex); the two semaphores are
// allocated in init, freed in deinit, and `sem_post`/`sem_wait` are safe from any thread; the
// database is only reachable from the store thread (it travels there inside `Start`).
final class StoreThread: @unchecked Sendable {
    /// A unit of work; it runs on the store thread with the database.
    typealias Job = @Sendable (HistoryDatabase) -> Void

    private struct State {
        var jobs: [Job] = []
        var accepting = true
        var sleeping = false
        var worker: pthread_t?
    }

    private let state = Mutex(State())
    /// Posted when a job arrives for a sleeping thread, or when the store closes.
    private let wakeUp: UnsafeMutablePointer<sem_t>
    /// A latch: posted once the thread has closed the database, and re-posted by each waiter.
    private let finished: UnsafeMutablePointer<sem_t>

    /// What the new thread starts from, handed over as a retained pointer.
    private final class Start {
        let thread: StoreThread
        let database: HistoryDatabase
        init(thread: StoreThread, database: HistoryDatabase) {
            self.thread = thread
            self.database = database
        }
    }

    /// Starts the thread, which takes over `database`: the caller must not use it afterwards.
    ///
    /// The corresponding C calls are `pthread_create` and `pthread_detach` (a detached thread, because
    /// a store dropped from its own thread could never join itself).
    init(database: HistoryDatabase) throws(StoreError) {
        wakeUp = .allocate(capacity: 1)
        finished = .allocate(capacity: 1)
        sem_init(wakeUp, 0, 0)
        sem_init(finished, 0, 0)
        let start = Unmanaged.passRetained(Start(thread: self, database: database))
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            StoreThread.serve(raw).finish()
            return nil
        }, start.toOpaque())
        guard rc == 0 else {
            start.release()
            throw StoreError.threadUnavailable(errno: rc)
        }
        pthread_detach(thread)
    }

    deinit {
        sem_destroy(wakeUp)
        sem_destroy(finished)
        wakeUp.deallocate()
        finished.deallocate()
    }

    /// Runs the job loop, then lets go of the `Start` — and with it the database, whose connection
    /// closes — before returning the thread object, so `finish` really comes after the close.
    private static func serve(_ raw: UnsafeMutableRawPointer) -> StoreThread {
        let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
        start.thread.runJobs(start.database)
        return start.thread
    }

    private func runJobs(_ database: HistoryDatabase) {
        state.withLock { $0.worker = pthread_self() }
        var batch: [Job] = []
        while true {
            let stop = state.withLock { state -> Bool in
                if state.jobs.isEmpty {
                    if !state.accepting { return true }
                    state.sleeping = true
                } else {
                    swap(&state.jobs, &batch)
                }
                return false
            }
            if stop { return }
            if batch.isEmpty {
                while sem_wait(wakeUp) != 0 && errno == EINTR {}
                continue
            }
            for job in batch { job(database) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    private func finish() {
        sem_post(finished)
    }

    /// Queues `job`; `false` when the store is closed and the job was dropped.
    func submit(_ job: @escaping Job) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, Bool) in
            guard state.accepting else { return (false, false) }
            state.jobs.append(job)
            defer { state.sleeping = false }
            return (true, state.sleeping)
        }
        if wake { sem_post(wakeUp) }
        return accepted
    }

    /// Stops taking jobs; the thread finishes those queued, closes the database and exits.
    ///
    /// With `wait`, blocks until the database is closed — except on the store thread itself (a
    /// completion closing the store), where waiting would never end; there the close follows as soon
    /// as the current job returns.
    func shutdown(wait: Bool) {
        let (wake, onStoreThread) = state.withLock { state -> (Bool, Bool) in
            state.accepting = false
            defer { state.sleeping = false }
            let onStoreThread = state.worker.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            return (state.sleeping, onStoreThread)
        }
        if wake { sem_post(wakeUp) }
        guard wait, !onStoreThread else { return }
        while sem_wait(finished) != 0 && errno == EINTR {}
        sem_post(finished)
    }
}
