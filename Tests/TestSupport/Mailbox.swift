import Foundation

/// Hands values from a bus handler (on the connection's thread) to a waiting test, in order.
public final class Mailbox<Value: Sendable>: Sendable {
    private let items = Locked<[Value]>([])

    public init() {}

    public func put(_ value: Value) { items.withLock { $0.append(value) } }

    public var count: Int { items.withLock { $0.count } }

    /// The oldest value, waiting up to `timeout` for one to arrive.
    ///
    /// The mailbox is looked in once more after the deadline has passed: with every suite running
    /// on two cores, tests that block their threads can keep this task from waking for seconds,
    /// and a value that arrived meanwhile is there, not late.
    public func take(timeout: Duration = .seconds(20)) async throws -> Value {
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
