#if canImport(Glibc)
public import Glibc
#endif

/// A pthread mutex: the one lock every thread of the broker, the client and the tests takes.
///
/// Why not `Synchronization.Mutex` or `NSLock`: on Linux `Mutex` locks with futex system calls of
/// its own, which ThreadSanitizer cannot see, so `swift test --sanitize=thread` would report every
/// access it guards as a data race — noise that would hide a real one. ThreadSanitizer intercepts
/// pthread mutexes and condition variables.
///
/// The mutex is allocated on the heap (a `pthread_mutex_t` must not move once initialised), owned
/// by this object alone, and destroyed in `deinit`. Never held across an `await`.
// @unchecked Sendable: the mutex is the synchronisation; its storage is created in init and
// destroyed in deinit, when no thread can hold it any more.
public final class ThreadLock: @unchecked Sendable {
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// The corresponding libc call is `pthread_mutex_init`.
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Takes the lock; pair with ``unlock()``. The corresponding libc call is `pthread_mutex_lock`.
    public func lock() {
        pthread_mutex_lock(mutex)
    }

    /// The corresponding libc call is `pthread_mutex_unlock`.
    public func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` with the lock held. Inlinable, so that other modules specialise it rather than
    /// call it generically (the store work of every track change takes it).
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A condition variable waited on with a ``ThreadLock`` held: a thread sleeps in it until another
/// signals, with no timer and no wake-ups in between.
// @unchecked Sendable: the condition variable is the synchronisation; its storage is created in
// init and destroyed in deinit.
public final class ThreadCondition: @unchecked Sendable {
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// `monotonic`: deadlines given to ``wait(_:until:)`` are read on the monotonic clock
    /// (`clock_gettime(CLOCK_MONOTONIC)`), so setting the wall clock neither stretches nor skips a wait.
    public init(monotonic: Bool = false) {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        if monotonic { pthread_condattr_setclock(&attributes, clockid_t(CLOCK_MONOTONIC)) }
        let rc = pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        precondition(rc == 0, "pthread_cond_init failed: \(rc)")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
    }

    /// With `lock` held: releases it, sleeps until signalled (or woken spuriously: callers wait in a
    /// loop on their own condition), and takes it again.
    public func wait(_ lock: ThreadLock) {
        pthread_cond_wait(condition, lock.mutex)
    }

    /// As ``wait(_:)``, but no later than `deadline`; `false` once the deadline has passed.
    public func wait(_ lock: ThreadLock, until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, lock.mutex, &deadline) == 0
    }

    /// Wakes one waiting thread.
    public func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiting thread.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
