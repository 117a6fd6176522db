import Clocks
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

/// After a commit, writes no one waits on (a player's listens) gather for a commit window and share
/// the next commit; anything someone waits on ends the window at once.
///
/// The windows here are long (seconds) where a test shows that something ends one early: a store
/// that waited the window out instead would fail the test's time bound by far, on any machine. Such
/// a test first waits until the store thread is inside the window, so it is the wake-up that ends
/// a window in progress that is tested, not the check made before one begins.
@Suite("HistoryStore: writes no one waits on share commits")
struct HistoryStoreCommitWindowTests {
    /// Well below the long windows, far above what any of these stores takes to commit.
    static let promptly: Duration = .seconds(20)

    /// A store that has committed one asset, with a write no one waits on inside the window that
    /// commit opened.
    static func storeWaitingOutAWindow(path: String? = nil, listen: @escaping @Sendable () -> Void = {}) async throws -> HistoryStore {
        let store = try path.map { try HistoryStore(path: $0, commitWindow: .seconds(60)) } ?? HistoryStore.inMemory(commitWindow: .seconds(60))
        #expect(try await answer { store.insert(makeAsset("First", started: 1), completion: $0) }.wasNew)
        store.together(.noOneWaits) { store.insert(makeAsset("Listen", started: 2)) { _ in listen() } }
        try waitUntil("the store thread waits out the window") { store.isWaitingOutCommitWindow }
        return store
    }

    @Test func aWriteNoOneWaitsOnRightAfterACommitWaitsOutTheWindow() async throws {
        let store = try HistoryStore.inMemory(commitWindow: .milliseconds(300))
        let committed = Locked<[String: Int64]>([:])
        func note(_ name: String) -> @Sendable (Result<InsertOutcome, StoreError>) -> Void {
            { _ in committed.withLock { $0[name] = MonotonicClock.microseconds } }
        }
        store.insert(makeAsset("First", started: 1), completion: note("First"))
        #expect(try await answer { store.count(completion: $0) } == 1)
        store.together(.noOneWaits) { store.insert(makeAsset("Listen", started: 2), completion: note("Listen")) }
        try waitUntil("the listen is committed") { committed.withLock { $0["Listen"] != nil } }
        // Both times are taken on the store thread right after each commit: the second commit came
        // no sooner than the window after the first (less the moment its completion took).
        let gap = committed.withLock { ($0["Listen"] ?? 0) - ($0["First"] ?? 0) }
        #expect(gap >= 250_000, "the listen was committed \(gap) µs after the previous commit")
    }

    @Test func writesArrivingInTheWindowShareOneCommit() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.sqlite3")
        let store = try await Self.storeWaitingOutAWindow(path: path)
        store.together(.noOneWaits) { store.insert(makeAsset("Another", started: 3)) { _ in } }
        let seen = Locked<(own: Int64, committed: Int64)?>(nil)
        store.write({ database throws(SQLiteError) -> (own: Int64, committed: Int64) in
            let committed = (try? OtherConnection(path: path).count("SELECT count(*) FROM assets")) ?? -1
            return (try database.connection.scalarInt("SELECT count(*) FROM assets") ?? -1, committed)
        }, done: { result in seen.withLock { $0 = try? result.get() } })
        try waitUntil("the write that ends the window is committed", timeout: .seconds(50)) { seen.withLock { $0 != nil } }
        // The write sees all three in its own transaction while only the first is committed: the
        // two listens waited, and share its commit.
        #expect(seen.withLock { $0?.own } == 3)
        #expect(seen.withLock { $0?.committed } == 1)
    }

    @Test func theFirstWriteCommitsAtOnce() async throws {
        let store = try HistoryStore.inMemory(commitWindow: .seconds(60))
        let start = ContinuousClock.now
        let stored = Locked(false)
        store.together(.noOneWaits) { store.insert(makeAsset()) { result in stored.withLock { $0 = (try? result.get()) != nil } } }
        try waitUntil("the write is committed", timeout: .seconds(50)) { stored.withLock { $0 } }
        #expect(ContinuousClock.now - start < Self.promptly)
    }

    @Test func aWriteAfterTheWindowClosedCommitsAtOnce() async throws {
        let store = try HistoryStore.inMemory(commitWindow: .seconds(2))
        let firstCommitted = Locked<Int64?>(nil)
        store.insert(makeAsset("First", started: 1)) { _ in firstCommitted.withLock { $0 = MonotonicClock.microseconds } }
        try waitUntil("the first write is committed") { firstCommitted.withLock { $0 } != nil }
        let windowClosed = (firstCommitted.withLock { $0 } ?? 0) + 2_100_000
        try waitUntil("the window has closed") { MonotonicClock.microseconds > windowClosed }
        let submitted = MonotonicClock.microseconds
        let committed = Locked<Int64?>(nil)
        store.together(.noOneWaits) { store.insert(makeAsset("Later", started: 2)) { _ in committed.withLock { $0 = MonotonicClock.microseconds } } }
        try waitUntil("the later write is committed") { committed.withLock { $0 } != nil }
        let took = (committed.withLock { $0 } ?? 0) - submitted
        #expect(took < 1_000_000, "committed \(took) µs after it was queued, with the window long closed")
    }

    @Test func aWriteSomeoneWaitsOnEndsTheWindowAndTakesTheWaitingWritesAlong() async throws {
        let order = Locked<[String]>([])
        let store = try await Self.storeWaitingOutAWindow { order.withLock { $0.append("Listen") } }
        let start = ContinuousClock.now
        store.insert(makeAsset("Donated", started: 3)) { _ in order.withLock { $0.append("Donated") } }
        try waitUntil("the donation is committed", timeout: .seconds(50)) { order.withLock { $0.count == 2 } }
        #expect(ContinuousClock.now - start < Self.promptly)
        #expect(order.withLock { $0 } == ["Listen", "Donated"])
    }

    @Test func aReadEndsTheWindowAndSeesTheWritesBeforeIt() async throws {
        let store = try await Self.storeWaitingOutAWindow()
        let start = ContinuousClock.now
        #expect(try await answer { store.count(completion: $0) } == 2)
        #expect(ContinuousClock.now - start < Self.promptly)
    }

    @Test func aGroupFillingUpEndsTheWindow() async throws {
        let stored = Locked(0)
        let store = try await Self.storeWaitingOutAWindow { stored.withLock { $0 += 1 } }
        let start = ContinuousClock.now
        // One unit at a time, so it is the last arrival that fills the group while the thread waits.
        for index in 1..<GroupCommit.maximumGroup {
            store.together(.noOneWaits) {
                store.insert(makeAsset("T\(index)", started: Int64(10 + index))) { _ in stored.withLock { $0 += 1 } }
            }
        }
        try waitUntil("the group is committed", timeout: .seconds(50)) { stored.withLock { $0 } == GroupCommit.maximumGroup }
        #expect(ContinuousClock.now - start < Self.promptly)
    }

    @Test func closingEndsTheWindowAndCommitsWhatWaited() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.sqlite3")
        let store = try await Self.storeWaitingOutAWindow(path: path)
        let start = ContinuousClock.now
        store.close()
        #expect(ContinuousClock.now - start < Self.promptly)
        #expect(try OtherConnection(path: path).count("SELECT count(*) FROM assets") == 2)
    }
}
