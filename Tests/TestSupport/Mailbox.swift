import Foundation

/// Hands values from a bus handler (on the connection's thread) to a waiting test, in order.
public final class Mailbox<Value: Sendable>: Sendable {
    private let items = Locked<[Value]>([])

    public init() {}

    public func put(_ value: Value) { items.withLock { $0.append(value) } }

    public var count: Int { items.withLock { $0.count } }

    /// The oldest value, waiting up to `timeout` for one to arrive.
    ///
    /// The deadline is generous and the mailbox is looked in once more after it has passed: the
    /// unit suites start all their tests at once on the test pool's two threads, so a task that
    /// sends what a handler puts here, or this one waking, can wait behind hundreds of tests —
    /// tens of seconds when the suite runs on a busy machine.
    public func take(timeout: Duration = .seconds(90)) async throws -> Value {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if let value = items.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return value }
            if clock.now >= deadline { throw MailboxTimeout() }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

public struct MailboxTimeout: Error, CustomStringConvertible {
    public var description: String { "nothing arrived before the deadline" }
}
