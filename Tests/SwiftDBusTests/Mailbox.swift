import Foundation
import TestSupport

/// Hands values from a bus handler (on the connection's thread) to a waiting test, in order.
final class Mailbox<Value: Sendable>: Sendable {
    private let items = Locked<[Value]>([])

    func put(_ value: Value) { items.withLock { $0.append(value) } }

    var count: Int { items.withLock { $0.count } }

    /// The oldest value, waiting up to `timeout` for one to arrive.
    func take(timeout: Duration = .seconds(20)) async throws -> Value {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if let value = items.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return value }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw MailboxTimeout()
    }
}

struct MailboxTimeout: Error, CustomStringConvertible {
    var description: String { "nothing arrived before the deadline" }
}
