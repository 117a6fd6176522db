// Waiting with a deadline: the only way tests wait for something to happen.

#if canImport(Glibc)
import Glibc
#endif

/// Thrown when a waited-for condition did not become true before its deadline.
public struct WaitTimeout: Error, CustomStringConvertible {
    /// What was being waited for, as given to `waitUntil`.
    public let what: String
    /// How long was waited.
    public let timeout: Duration

    public var description: String { "timed out after \(timeout) waiting until \(what)" }
}

/// The pause between two checks of a condition: starts short so fast conditions return at once,
/// grows to a few milliseconds so slow ones do not spin.
struct PollInterval {
    private var next: Duration = .milliseconds(1)

    mutating func advance() -> Duration {
        defer { next = min(next * 2, .milliseconds(20)) }
        return next
    }
}

/// Checks `condition` repeatedly, a few milliseconds apart, until it returns true; throws
/// `WaitTimeout` carrying `description` if it is still false when `timeout` has passed.
/// An error thrown by `condition` ends the wait at once and is rethrown.
///
/// This is the only way tests wait: never a bare sleep standing in for synchronisation.
public func waitUntil(
    _ description: String,
    timeout: Duration = .seconds(10),
    _ condition: () throws -> Bool
) throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var interval = PollInterval()
    while true {
        if try condition() { return }
        if clock.now >= deadline { throw WaitTimeout(what: description, timeout: timeout) }
        let pause = min(interval.advance(), deadline - clock.now)
        let (seconds, attoseconds) = pause.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}

/// The `async` form of `waitUntil`: checks the async `condition` repeatedly until it returns true;
/// throws `WaitTimeout` once `timeout` has passed. Cancellation ends the wait with CancellationError.
/// Swift picks this form only when the closure awaits something; with a synchronous condition write
/// `try waitUntil(…)` without `await` (the synchronous form, which blocks its thread between checks).
public func waitUntil(
    _ description: String,
    timeout: Duration = .seconds(10),
    _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var interval = PollInterval()
    while true {
        if try await condition() { return }
        if clock.now >= deadline { throw WaitTimeout(what: description, timeout: timeout) }
        try await Task.sleep(for: min(interval.advance(), deadline - clock.now))
    }
}
