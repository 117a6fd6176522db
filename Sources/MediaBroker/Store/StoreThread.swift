internal import Glibc

/// The store's own thread: it owns the database and runs jobs one at a time, in submission order.
///
/// Why a thread of its own rather than an actor or the cooperative pool: every job may block on
/// `fsync` or on another process's lock for milliseconds to seconds. Blocking a cooperative thread
/// stalls unrelated tasks (on 2 cores, half the pool), and the daemon's D-Bus loop must never wait on
/// disk. A dedicated thread that sleeps in `pthread_cond_wait` when idle costs no wake-ups and no CPU,
/// and confines the `NOMUTEX` connection to one thread by construction.
///
/// The queue is guarded by a `pthread_mutex_t`, not `Synchronization.Mutex`: on Linux that `Mutex`
/// is a futex inside an uninstrumented library, which ThreadSanitizer cannot see, so every access it
/// guards is reported as a race — and the suite must pass under `--sanitize=thread` (issue 6).
/// ThreadSanitizer intercepts the pthread calls and understands them.
// @unchecked Sendable: `jobs`, `accepting`, `finished` and `worker` are only read or written with
// `mutex` held; the mutex and conditions are allocated in init and destroyed in deinit, and the
// pthread calls on them are safe from any thread; the database is only reachable from the store
// thread (it travels there inside `Start`).
final class StoreThread: @unchecked Sendable {
    /// A unit of work; it runs on the store thread with the database.
    typealias Job = @Sendable (HistoryDatabase) -> Void

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Signalled when a job arrives in an empty queue, and broadcast when the store closes.
    private let workAvailable: UnsafeMutablePointer<pthread_cond_t>
    /// Broadcast once the thread has closed the database.
    private let closed: UnsafeMutablePointer<pthread_cond_t>

    private var jobs: [Job] = []
    private var accepting = true
    private var finished = false
    private var worker: pthread_t?

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
        mutex = .allocate(capacity: 1)
        workAvailable = .allocate(capacity: 1)
        closed = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(workAvailable, nil)
        pthread_cond_init(closed, nil)
        let start = Unmanaged.passRetained(Start(thread: self, database: database))
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            StoreThread.serve(raw).markFinished()
            return nil
        }, start.toOpaque())
        guard rc == 0 else {
            start.release()
            throw StoreError.threadUnavailable(errno: rc)
        }
        pthread_detach(thread)
    }

    deinit {
        pthread_cond_destroy(closed)
        pthread_cond_destroy(workAvailable)
        pthread_mutex_destroy(mutex)
        closed.deallocate()
        workAvailable.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Runs the job loop, then lets go of the `Start` — and with it the database, whose connection
    /// closes — before returning the thread object, so `markFinished` really comes after the close.
    private static func serve(_ raw: UnsafeMutableRawPointer) -> StoreThread {
        let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
        start.thread.runJobs(start.database)
        return start.thread
    }

    /// A backlog at least this long is followed by `malloc_trim` once the queue is empty.
    static let trimAfterBacklog = 256

    /// glibc's `malloc_trim`, looked up at run time: `<malloc.h>` is not part of the Glibc module.
    /// `nil` on a C library without it (the trim is then skipped). A null handle is `RTLD_DEFAULT`.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }

    /// Takes the whole queue at each wake-up and runs it without the lock, so submitting never waits
    /// for a job to finish.
    ///
    /// When a backlog of at least `trimAfterBacklog` jobs has drained, the heap is trimmed before the
    /// thread sleeps: a burst of jobs (a player flooding track changes, a large purge) grows glibc's
    /// heap by the queued closures and assets, and glibc keeps that memory when they are freed —
    /// bench/run measured 16.5 MB of anonymous memory after 10,000 listens queued in a second, 3.3 MB
    /// after `malloc_trim(0)`. A trim walks the arenas (well under a millisecond) and only follows a
    /// burst, never an ordinary job.
    private func runJobs(_ database: HistoryDatabase) {
        var batch: [Job] = []
        var drained = 0
        pthread_mutex_lock(mutex)
        worker = pthread_self()
        while true {
            if jobs.isEmpty && drained >= Self.trimAfterBacklog {
                pthread_mutex_unlock(mutex)
                _ = Self.mallocTrim?(0)
                pthread_mutex_lock(mutex)
            }
            if jobs.isEmpty { drained = 0 }
            while jobs.isEmpty && accepting { pthread_cond_wait(workAvailable, mutex) }
            if jobs.isEmpty { break }
            swap(&jobs, &batch)
            pthread_mutex_unlock(mutex)
            for job in batch { job(database) }
            drained += batch.count
            batch.removeAll(keepingCapacity: true)
            pthread_mutex_lock(mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    private func markFinished() {
        locked {
            finished = true
            pthread_cond_broadcast(closed)
        }
    }

    /// Queues `job`; `false` when the store is closed and the job was dropped.
    func submit(_ job: @escaping Job) -> Bool {
        locked {
            guard accepting else { return false }
            jobs.append(job)
            // The thread only waits on an empty queue, so only the first job needs to wake it.
            if jobs.count == 1 { pthread_cond_signal(workAvailable) }
            return true
        }
    }

    /// Stops taking jobs; the thread finishes those queued, closes the database and exits.
    ///
    /// With `wait`, blocks until the database is closed — except on the store thread itself (a
    /// completion closing the store), where waiting would never end; there the close follows as soon
    /// as the current job returns.
    func shutdown(wait: Bool) {
        locked {
            accepting = false
            pthread_cond_broadcast(workAvailable)
            let onStoreThread = worker.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            guard wait, !onStoreThread else { return }
            while !finished { pthread_cond_wait(closed, mutex) }
        }
    }
}
