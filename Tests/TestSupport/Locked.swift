import Foundation

/// A value behind an `NSLock`, for state the tests share between threads.
///
/// Not `Synchronization.Mutex`: on Linux it locks with futexes ThreadSanitizer cannot see, and
/// these tests also run under `swift test --sanitize=thread`; `NSLock` is a pthread mutex.
// @unchecked Sendable: `value` is read and written only inside `withLock`, with the lock held.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
