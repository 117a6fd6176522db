import TestSupport
import Testing
@testable import MediaBroker

/// After a commit, writes no one waits on (a player's listens) gather for a commit window and share
/// the next commit; anything someone waits on ends the window at once.
///
/// The windows here are long (seconds) where a test shows that something ends one early: a store
/// that waited the window out instead would fail the test's time bound by far, on any machine.
@Suite("HistoryStore: writes no one waits on share commits")
struct HistoryStoreCommitWindowTests {
    /// Well below the long windows, far above what any of these stores takes to commit.
    static let promptly: Duration = .seconds(20)

    @Test func aWriteNoOneWaitsOnRightAfterACommitWaitsOutTheWindow() async throws {
        let window = Duration.milliseconds(300)
        let store = try HistoryStore.inMemory(commitWindow: window)
        let committed = Locked<[String: Int64]>([:])
        func note(_ name: String) -> @Sendable (Result<InsertOutcome, StoreError>) -> Void {
            { _ in committed.withLock { $0[name] = MonotonicClock.microseconds } }
        }
        store.insert(makeAsset("First", started: 1), completion: note("First"))
        #expect(try await store.count() == 1)
        store.together(.noOneWaits) { store.insert(makeAsset("Listen", started: 2), completion: note("Listen")) }
        try waitUntil("the listen is committed") { committed.withLock { $0["Listen"] != nil } }
        // Both times are taken on the store thread right after each commit: the second commit came
        // no sooner than the window after the first (less the moment its completion took).
        let gap = committed.withLock { ($0["Listen"] ?? 0) - ($0["First"] ?? 0) }
        #expect(gap >= 250_000, "the listen was committed \(gap) µs after the previous commit")
    }

    @Test func writesArrivingInTheWindowShareOneCommit() async throws {
        let store = try HistoryStore.inMemory(commitWindow: .milliseconds(300))
        #expect(try await store.insert(makeAsset("First", started: 1)).wasNew)
        let seen = Locked<(inTransaction: Bool, count: Int64)?>(nil)
        store.together(.noOneWaits) { store.insert(makeAsset("A", started: 2)) { _ in } }
        store.together(.noOneWaits) {
            store.insert(makeAsset("B", started: 3)) { _ in }
            store.write({ database throws(SQLiteError) -> (inTransaction: Bool, count: Int64) in
                (database.connection.isInTransaction, try database.connection.scalarInt("SELECT count(*) FROM assets") ?? -1)
            }, done: { result in seen.withLock { $0 = try? result.get() } })
        }
        try waitUntil("the last write of the window is committed") { seen.withLock { $0 != nil } }
        // The last write sees A and B uncommitted in its own transaction: the three shared one.
        #expect(seen.withLock { $0?.inTransaction } == true)
        #expect(seen.withLock { $0?.count } == 3)
    }

    @Test func aWriteAfterAQuietSpellCommitsAtOnce() async throws {
        let store = try HistoryStore.inMemory(commitWindow: .seconds(60))
        let start = ContinuousClock.now
        let stored = Locked(false)
        store.together(.noOneWaits) { store.insert(makeAsset()) { result in stored.withLock { $0 = (try? result.get()) != nil } } }
        try waitUntil("the write is committed", timeout: .seconds(50)) { stored.withLock { $0 } }
        #expect(ContinuousClock.now - start < Self.promptly)
    }

    @Test func aWriteSomeoneWaitsOnEndsTheWindowAndTakesTheWaitingWritesAlong() async throws {
        let store = try HistoryStore.inMemory(commitWindow: .seconds(60))
        #expect(try await store.insert(makeAsset("First", started: 1)).wasNew)
        let order = Locked<[String]>([])
        let start = ContinuousClock.now
        store.together(.noOneWaits) { store.insert(makeAsset("Listen", started: 2)) { _ in order.withLock { $0.append("Listen") } } }
        store.insert(makeAsset("Donated", started: 3)) { _ in order.withLock { $0.append("Donated") } }
        try waitUntil("the donation is committed", timeout: .seconds(50)) { order.withLock { $0.count == 2 } }
        #expect(ContinuousClock.now - start < Self.promptly)
        #expect(order.withLock { $0 } == ["Listen", "Donated"])
    }

    @Test func aReadEndsTheWindowAndSeesTheWritesBeforeIt() async throws {
        let store = try HistoryStore.inMemory(commitWindow: .seconds(60))
        #expect(try await store.insert(makeAsset("First", started: 1)).wasNew)
        let start = ContinuousClock.now
        store.together(.noOneWaits) { store.insert(makeAsset("Listen", started: 2)) { _ in } }
        #expect(try await store.count() == 2)
        #expect(ContinuousClock.now - start < Self.promptly)
    }

    @Test func aFullGroupEndsTheWindow() async throws {
        let store = try HistoryStore.inMemory(commitWindow: .seconds(60))
        #expect(try await store.insert(makeAsset("First", started: 1)).wasNew)
        let stored = Locked(0)
        let start = ContinuousClock.now
        store.together(.noOneWaits) {
            for index in 0..<GroupCommit.maximumGroup {
                store.insert(makeAsset("T\(index)", started: Int64(10 + index))) { _ in stored.withLock { $0 += 1 } }
            }
        }
        try waitUntil("the group is committed", timeout: .seconds(50)) { stored.withLock { $0 } == GroupCommit.maximumGroup }
        #expect(ContinuousClock.now - start < Self.promptly)
    }

    @Test func closingEndsTheWindowAndCommitsWhatWaited() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.sqlite3")
        let store = try HistoryStore(path: path, commitWindow: .seconds(60))
        #expect(try await store.insert(makeAsset("First", started: 1)).wasNew)
        let start = ContinuousClock.now
        store.together(.noOneWaits) { store.insert(makeAsset("Listen", started: 2)) { _ in } }
        store.close()
        #expect(ContinuousClock.now - start < Self.promptly)
        #expect(try OtherConnection(path: path).count("SELECT count(*) FROM assets") == 2)
    }
}
