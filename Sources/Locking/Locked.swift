/// A value behind a ``ThreadLock``, for small state several threads share.
// @unchecked Sendable: `value` is read and written only inside `withLock`, with the lock held.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = ThreadLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the lock held and the value to read or change.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try lock.withLock { () throws(Failure) -> Result in try body(&value) }
    }
}
