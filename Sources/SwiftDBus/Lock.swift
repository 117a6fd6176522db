#if canImport(Glibc)
import Glibc
#endif

/// A value guarded by a `pthread_mutex_t`: the event loop's small shared state.
///
/// Why not `Synchronization.Mutex`: on Linux it locks with futex system calls of its own, which
/// ThreadSanitizer cannot see, so `swift test --sanitize=thread` reports every access it guards
/// as a data race — noise that would hide a real one. ThreadSanitizer intercepts pthread mutexes.
///
/// The mutex is allocated on the heap (a `pthread_mutex_t` must not move once initialised), owned
/// by this object alone, and destroyed in `deinit`. Never held across an `await` or a blocking call.
// @unchecked Sendable: `value` is read and written only inside `withLock`, with the mutex held.
final class PThreadMutex<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// The corresponding libc call is `pthread_mutex_init`.
    init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held. The corresponding libc calls are `pthread_mutex_lock` and
    /// `pthread_mutex_unlock`.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
