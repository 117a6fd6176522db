import Clocks
import SwiftDBus
import BrokerCore

/// Keeps the bus from outrunning the store (issue 16): while the store is `limit` jobs behind, the
/// broker stops reading the bus, and starts again once it is back under half of that. What peers
/// send meanwhile waits in the socket and in the bus daemon, not in the broker's memory; nothing
/// already read is dropped, and calls are answered once reading resumes.
///
/// Jobs come from what the bus delivers (listens, donations, calls), so pausing the bus is what
/// bounds them. One log line per burst, when it ends, says how far behind the store fell and for
/// how long reading paused.
// @unchecked Sendable: `pausedSince` and `deepest` are touched only on the connection's thread,
// where `mayRead` is asked; `backlog` is safe from any thread.
final class StoreBackpressure: @unchecked Sendable {
    /// Queued store jobs that pause reading. A listen's work is one to three jobs, so this is
    /// thousands of listens in flight — far more than any player makes in a commit window.
    static let defaultLimit = 4096

    private let backlog: @Sendable () -> Int
    private let limit: Int
    private let log: Log
    private var pausedSince: Microseconds?
    private var deepest = 0

    init(limit: Int = StoreBackpressure.defaultLimit, log: Log, backlog: @escaping @Sendable () -> Int) {
        self.limit = max(limit, 2)
        self.log = log
        self.backlog = backlog
    }

    /// Pauses `connection`'s reading while `store` is behind.
    static func install(on connection: BusConnection, for store: HistoryStore, log: Log) {
        let gate = StoreBackpressure(log: log) { store.backlog }
        connection.readOnlyWhile { gate.mayRead() }
    }

    /// Whether the bus may be read now.
    func mayRead() -> Bool {
        let queued = backlog()
        guard let since = pausedSince else {
            guard queued >= limit else { return true }
            pausedSince = MonotonicClock.microseconds
            deepest = queued
            return false
        }
        deepest = max(deepest, queued)
        guard queued < limit / 2 else { return false }
        let paused = (MonotonicClock.microseconds - since) / 1000
        log.warning("the history store fell \(deepest) jobs behind; stopped reading the bus for \(paused) ms until it caught up")
        pausedSince = nil
        return true
    }
}
