internal import Glibc

/// One thread for work that may block on the disk — resolving apps (desktop files, icon
/// directories), reading the history — so that the bus loop and the cooperative pool never wait for
/// it. Created on the first job, it runs jobs in submission order and sleeps in
/// `pthread_cond_wait` when the queue is empty: no timer, no wake-ups. The queue is guarded by a
/// `pthread_mutex_t` (not `Synchronization.Mutex`) so that ThreadSanitizer sees the locking, as in
/// `StoreThread`.
// @unchecked Sendable: `jobs`, `started` and `accepting` are only touched with `mutex` held; the
// mutex and condition are created in init and destroyed in deinit, which runs only once the thread
// has let go of its reference (it holds one while it runs).
final class WorkerThread: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let workAvailable: UnsafeMutablePointer<pthread_cond_t>
    private var jobs: [Job] = []
    private var started = false
    private var accepting = true

    init() {
        mutex = .allocate(capacity: 1)
        workAvailable = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(workAvailable, nil)
    }

    deinit {
        pthread_cond_destroy(workAvailable)
        pthread_mutex_destroy(mutex)
        workAvailable.deallocate()
        mutex.deallocate()
    }

    /// Queues `job`, starting the thread if this is the first; `false` when the job could not run
    /// (after `shutdown`, or when no thread could be created).
    ///
    /// The corresponding C calls are `pthread_create` and `pthread_detach`.
    func submit(_ job: @escaping Job) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard accepting else { return false }
        if !started {
            let context = Unmanaged.passRetained(self)
            var thread = pthread_t()
            let rc = pthread_create(&thread, nil, { raw in
                guard let raw else { return nil }
                Unmanaged<WorkerThread>.fromOpaque(raw).takeRetainedValue().runJobs()
                return nil
            }, context.toOpaque())
            guard rc == 0 else {
                context.release()
                return false
            }
            pthread_detach(thread)
            started = true
        }
        jobs.append(job)
        if jobs.count == 1 { pthread_cond_signal(workAvailable) }
        return true
    }

    /// Stops taking jobs; the thread runs what is queued, then exits. Never waits.
    func shutdown() {
        pthread_mutex_lock(mutex)
        accepting = false
        pthread_cond_broadcast(workAvailable)
        pthread_mutex_unlock(mutex)
    }

    private func runJobs() {
        var batch: [Job] = []
        pthread_mutex_lock(mutex)
        while true {
            while jobs.isEmpty && accepting { pthread_cond_wait(workAvailable, mutex) }
            if jobs.isEmpty { break }
            swap(&jobs, &batch)
            pthread_mutex_unlock(mutex)
            for job in batch { job() }
            batch.removeAll(keepingCapacity: true)
            pthread_mutex_lock(mutex)
        }
        pthread_mutex_unlock(mutex)
    }
}
