internal import Glibc
import Locking

/// One thread for work that may block on the disk — resolving apps (desktop files, icon
/// directories), reading the history — so that the bus loop and the cooperative pool never wait for
/// it. Created on the first job, it runs jobs in submission order and sleeps in
/// a condition variable when the queue is empty: no timer, no wake-ups. The queue is guarded by a
/// ``ThreadLock``, as in `StoreThread`.
// @unchecked Sendable: `jobs`, `started` and `accepting` are only touched with `mutex` held; the
// thread holds a reference to this object while it runs.
final class WorkerThread: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    private let mutex = ThreadLock()
    private let workAvailable = ThreadCondition()
    private var jobs: [Job] = []
    private var started = false
    private var accepting = true

    /// Queues `job`, starting the thread if this is the first; `false` when the job could not run
    /// (after `shutdown`, or when no thread could be created).
    ///
    /// The corresponding C calls are `pthread_create` and `pthread_detach`.
    func submit(_ job: @escaping Job) -> Bool {
        mutex.lock()
        defer { mutex.unlock() }
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
        if jobs.count == 1 { workAvailable.signal() }
        return true
    }

    /// Stops taking jobs; the thread runs what is queued, then exits. Never waits.
    func shutdown() {
        mutex.withLock {
            accepting = false
            workAvailable.broadcast()
        }
    }

    private func runJobs() {
        var batch: [Job] = []
        mutex.lock()
        while true {
            while jobs.isEmpty && accepting { workAvailable.wait(mutex) }
            if jobs.isEmpty { break }
            swap(&jobs, &batch)
            mutex.unlock()
            for job in batch { job() }
            batch.removeAll(keepingCapacity: true)
            mutex.lock()
        }
        mutex.unlock()
    }
}
