import Locking
import Clocks
internal import Glibc

/// The store's own thread: it owns the database and runs jobs one at a time, in submission order.
///
/// Why a thread of its own rather than an actor or the cooperative pool: every job may block on
/// `fsync` or on another process's lock for milliseconds to seconds. Blocking a cooperative thread
/// stalls unrelated tasks (on 2 cores, half the pool), and the daemon's D-Bus loop must never wait on
/// disk. A dedicated thread that sleeps on a condition variable when idle costs no wake-ups and no
/// CPU, and confines the `NOMUTEX` connection to one thread by construction.
///
/// The queue is guarded by a ``ThreadLock`` (a pthread mutex ThreadSanitizer sees, so the suite
/// passes under `--sanitize=thread`, issue 6).
// @unchecked Sendable: `jobs`, `jobsSomeoneWaitsOn`, `inCommitWindow`, `accepting`, `finished`,
// `worker` and `collector` are only read or written with `mutex` held; the database is only
// reachable from the store thread (it travels there inside `Start`).
final class StoreThread: @unchecked Sendable {
    /// A unit of work. It runs on the store thread with the database and answers whether it failed
    /// and what to do once its writes are committed (call its completion); it never calls the
    /// completion itself, so no one hears of a write that a later rollback could still undo.
    struct Job: Sendable {
        enum Kind: Sendable {
            /// A write that may share a transaction with the writes queued beside it (group commit).
            case write
            /// Runs by itself, outside any transaction: reads, and work that commits in steps of its
            /// own (purge announces each batch once that batch is committed).
            case alone
        }

        let kind: Kind
        /// Set on every job of a `together` unit after its first, so a transaction never ends inside it.
        var continuesUnit = false
        /// No caller waits on this write's completion (a unit queued with `.noOneWaits`): it may wait
        /// out a commit window (see `runJobs`).
        var mayWait = false
        let run: @Sendable (HistoryDatabase) -> Outcome
        /// Answers the job with `error` without running it: its transaction could not even begin.
        let fail: @Sendable (StoreError) -> Void
    }

    struct Outcome {
        var failed: Bool
        /// Runs the completion once the job's transaction has ended: given `nil` when the job's
        /// writes were committed (or it wrote nothing), or the error that lost them when its own
        /// work succeeded but the commit failed.
        var finish: (StoreError?) -> Void
    }

    private let mutex = ThreadLock()
    /// Signalled when a job arrives in an empty queue, when a job someone waits on or a full group
    /// arrives during a commit window, and when a unit ends empty; broadcast when the store closes.
    /// Commit windows are timed waits on it, measured on the monotonic clock, so setting the wall
    /// clock neither stretches nor skips one.
    private let workAvailable = ThreadCondition(monotonic: true)
    /// Broadcast once the thread has closed the database.
    private let closed = ThreadCondition()

    private var jobs: [Job] = []
    /// How many of `jobs` someone waits on (`mayWait == false`): any one of them ends a commit window.
    private var jobsSomeoneWaitsOn = 0
    /// The store thread is waiting out a commit window: a job someone waits on must wake it.
    private var inCommitWindow = false
    private var accepting = true
    private var finished = false
    private var worker: pthread_t?
    /// The thread inside `together` and the jobs it submitted so far, held back until it ends.
    private var collector: (thread: pthread_t, jobs: [Job])?

    /// What the new thread starts from, handed over as a retained pointer.
    private final class Start {
        let thread: StoreThread
        let database: HistoryDatabase
        init(thread: StoreThread, database: HistoryDatabase) {
            self.thread = thread
            self.database = database
        }
    }

    /// How long after a commit writes no one waits on gather before the next one (see `runJobs`).
    private let commitWindow: Duration

    /// Starts the thread, which takes over `database`: the caller must not use it afterwards.
    ///
    /// The corresponding C calls are `pthread_create` and `pthread_detach` (a detached thread, because
    /// a store dropped from its own thread could never join itself).
    init(database: HistoryDatabase, commitWindow: Duration) throws(StoreError) {
        self.commitWindow = commitWindow
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

    /// Runs `body` with the mutex held.
    private func locked<T>(_ body: () -> T) -> T {
        mutex.withLock(body)
    }

    /// Runs the job loop, then lets go of the `Start` — and with it the database, whose connection
    /// closes — before returning the thread object, so `markFinished` really comes after the close.
    private static func serve(_ raw: UnsafeMutableRawPointer) -> StoreThread {
        let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
        start.thread.runJobs(start.database)
        return start.thread
    }

    /// After at least this many jobs, the heap is trimmed once the store has been quiet for
    /// `quietBeforeTrim` (see `runJobs`).
    static let trimAfterBacklog = 256
    static let quietBeforeTrim: Duration = .milliseconds(100)

    /// glibc's `malloc_trim`, looked up at run time: `<malloc.h>` is not part of the Glibc module.
    /// `nil` on a C library without it (the trim is then skipped). A null handle is `RTLD_DEFAULT`.
    static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }

    /// Takes the whole queue at each wake-up and runs it without the lock, so submitting never waits
    /// for a job to finish.
    ///
    /// **Commit windows.** A commit costs an `fsync` however few rows it carries. A player flooding
    /// track changes (quirk 8) would otherwise pay one per change: each arrives alone, just after the
    /// previous commit ended. So when every queued job is a write no one waits on (`Job.mayWait`: a player's
    /// listens, announced with `MediaAdded` only once stored) and the last commit ended less than
    /// `commitWindow` ago, the thread waits until the window closes, gathering what arrives meanwhile
    /// into one transaction. A write someone waits on (a `Donate` caller's reply), a read, a full
    /// group or a shutdown ends the wait at once; a write after a quiet spell commits at once.
    /// Nothing is acknowledged earlier than before — completions still follow the commit — so
    /// nothing acknowledged can be lost; a listen's `MediaAdded` comes at most one window later.
    ///
    /// Once at least `trimAfterBacklog` jobs have run in one burst (no gap of `quietBeforeTrim`
    /// between them) and no job has come for `quietBeforeTrim`, the heap is trimmed before the
    /// thread sleeps: a burst of jobs (a player flooding track changes, a large purge) grows glibc's
    /// heap by the queued closures and assets, and glibc keeps that memory when they are freed
    /// unless asked (`malloc_trim(0)`). A trim walks the arenas, and the pages it returns are faulted
    /// in again by the next jobs: trimming whenever the queue runs dry — between two commit windows
    /// of a flood — would make a flood of track changes dearer. So the burst must be over first;
    /// the wait for that is the one wake-up a burst adds, and an idle thread sleeps untimed.
    private func runJobs(_ database: HistoryDatabase) {
        var batch: [Job] = []
        /// Jobs run since the last trim, within one burst (see below).
        var drained = 0
        var lastBatchEnded = MonotonicClock.microseconds
        /// When the window opened by the last commit closes; `nil` before the first commit.
        var windowCloses: timespec?
        mutex.lock()
        worker = pthread_self()
        while true {
            if jobs.isEmpty && drained >= Self.trimAfterBacklog && noJobCame(within: Self.quietBeforeTrim) {
                mutex.unlock()
                _ = Self.mallocTrim?(0)
                mutex.lock()
                drained = 0
            }
            if jobs.isEmpty {
                // A unit still being gathered is let in even after a shutdown began: its jobs were accepted.
                while jobs.isEmpty && (accepting || collector != nil) { workAvailable.wait(mutex) }
                // A quiet spell ends a burst: the jobs before it do not count towards a trim.
                if MonotonicClock.microseconds - lastBatchEnded >= Self.quietBeforeTrim.wholeMicroseconds { drained = 0 }
            }
            if jobs.isEmpty { break }
            if let closes = windowCloses { waitOutCommitWindow(until: closes) }
            swap(&jobs, &batch)
            jobsSomeoneWaitsOn = 0
            mutex.unlock()
            let committed = GroupCommit(database: database).run(batch)
            if committed, commitWindow > .zero { windowCloses = MonotonicClock.now.adding(commitWindow) }
            drained += batch.count
            batch.removeAll(keepingCapacity: true)
            lastBatchEnded = MonotonicClock.microseconds
            mutex.lock()
        }
        mutex.unlock()
        // SQLite checkpoints by itself when the last connection to the file closes, but the
        // `HistoryReader`'s connection may outlive this one: the WAL is emptied into the database here.
        database.truncateWAL()
    }

    /// With `mutex` held and the queue empty: waits up to `quiet` for a job; whether none came.
    private func noJobCame(within quiet: Duration) -> Bool {
        let deadline = MonotonicClock.now.adding(quiet)
        while jobs.isEmpty, accepting || collector != nil, workAvailable.wait(mutex, until: deadline) {}
        return jobs.isEmpty
    }

    /// With `mutex` held and jobs queued: waits until `closes` while only writes no one waits on are
    /// queued, the group is not full and the store is open (see `runJobs`).
    private func waitOutCommitWindow(until closes: timespec) {
        inCommitWindow = true
        while accepting, jobsSomeoneWaitsOn == 0, jobs.count < GroupCommit.maximumGroup,
              workAvailable.wait(mutex, until: closes) {}
        inCommitWindow = false
    }

    /// Jobs queued and not yet taken by the thread.
    var backlog: Int { locked { jobs.count } }

    /// Whether the thread is waiting out a commit window now (for tests that must reach it there).
    var isInCommitWindow: Bool { locked { inCommitWindow } }

    private func markFinished() {
        locked {
            finished = true
            closed.broadcast()
        }
    }

    /// Queues `job`; `false` when the store is closed and the job was dropped. Inside `together` on
    /// this thread, the job is held back until the unit is complete.
    func submit(_ job: Job) -> Bool {
        locked {
            guard accepting else { return false }
            if let collector, pthread_equal(collector.thread, pthread_self()) != 0 {
                var held = job
                held.continuesUnit = !collector.jobs.isEmpty
                self.collector?.jobs.append(held)
                return true
            }
            enqueue([job])
            return true
        }
    }

    /// With `mutex` held: queues `arriving` and wakes the thread if it sleeps on an empty queue, or
    /// waits out a commit window that one of them must end.
    private func enqueue(_ arriving: [Job]) {
        let wasEmpty = jobs.isEmpty
        jobs.append(contentsOf: arriving)
        let someoneWaits = arriving.count { !$0.mayWait }
        jobsSomeoneWaitsOn += someoneWaits
        if wasEmpty || (inCommitWindow && (someoneWaits > 0 || jobs.count >= GroupCommit.maximumGroup)) {
            workAvailable.signal()
        }
    }

    /// Runs `body`, holding back the jobs this thread submits meanwhile and queueing them together
    /// when it returns: one wake-up of the store thread, and one transaction and `fsync` for all
    /// their writes. `body` must not wait for those jobs. Other threads' jobs are not held; inside
    /// another thread's unit, or nested in its own, `body` simply runs: its jobs take the urgency of
    /// its own enclosing unit, or, joining none, are committed as if someone waited.
    ///
    /// With `.noOneWaits`, the unit's jobs may wait out a commit window (see `runJobs`).
    func together(_ urgency: CommitUrgency, _ body: () -> Void) {
        let collecting = locked { () -> Bool in
            guard collector == nil, accepting else { return false }
            collector = (pthread_self(), [])
            return true
        }
        body()
        guard collecting else { return }
        locked {
            var held = collector?.jobs ?? []
            collector = nil
            if urgency == .noOneWaits {
                for index in held.indices { held[index].mayWait = true }
            }
            // Also when nothing was held: a shutdown meanwhile leaves the thread waiting for this unit.
            if held.isEmpty { workAvailable.signal() } else { enqueue(held) }
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
            // Closing from inside `together`: what the unit holds was accepted, so it runs first.
            if let collector, pthread_equal(collector.thread, pthread_self()) != 0 {
                jobs.append(contentsOf: collector.jobs)
                self.collector = nil
            }
            workAvailable.broadcast()
            let onStoreThread = worker.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            guard wait, !onStoreThread else { return }
            while !finished { closed.wait(mutex) }
        }
    }
}
