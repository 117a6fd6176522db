import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

@Suite("HistoryStore: writes queued together share one commit")
struct HistoryStoreGroupCommitTests {
    @Test func writesQueuedTogetherShareOneTransaction() async throws {
        let store = try HistoryStore.inMemory()
        let seen = Locked<(inTransaction: Bool, count: Int64)?>(nil)
        store.together {
            store.insert(makeAsset("A")) { _ in }
            store.write({ database throws(SQLiteError) -> (inTransaction: Bool, count: Int64) in
                // Sees A before any COMMIT: the two share a transaction.
                (database.connection.isInTransaction, try database.connection.scalarInt("SELECT count(*) FROM assets") ?? -1)
            }, done: { result in seen.withLock { $0 = try? result.get() } })
        }
        #expect(try await answer { store.count(completion: $0) } == 1)
        let observed = seen.withLock { $0 }
        #expect(observed?.inTransaction == true)
        #expect(observed?.count == 1)
    }

    @Test func aFailingWriteIsUndoneAloneAndTheOthersCommit() async throws {
        let store = try HistoryStore.inMemory()
        let failed = Locked<StoreError?>(nil)
        let stored = Locked<[Bool]>([])
        store.together {
            store.insert(makeAsset("Before")) { result in stored.withLock { $0.append((try? result.get()) != nil) } }
            store.write({ database throws(SQLiteError) -> Void in
                // Writes a row, then fails: the row must go with it, and only it.
                try database.connection.execute("INSERT INTO settings(key, value) VALUES('half', 'done')")
                try database.connection.execute("INSERT INTO no_such_table VALUES(1)")
            }, done: { result in if case .failure(let error) = result { failed.withLock { $0 = error } } })
            store.insert(makeAsset("After")) { result in stored.withLock { $0.append((try? result.get()) != nil) } }
        }
        #expect(try await Set(store.recentPage(RecentQuery()).map(\.title)) == ["Before", "After"])
        #expect(stored.withLock { $0 } == [true, true])
        #expect(failed.withLock { $0 } != nil)
        #expect(try await answer { store.setting("half", completion: $0) } == nil)
    }

    /// A write queued alone has a transaction of its own too: whatever it wrote before failing goes.
    @Test func aWriteAloneIsAtomic() async throws {
        let store = try HistoryStore.inMemory()
        let failed = Locked<Bool?>(nil)
        store.write({ database throws(SQLiteError) -> Void in
            try database.connection.execute("INSERT INTO settings(key, value) VALUES('half', 'done')")
            try database.connection.execute("INSERT INTO no_such_table VALUES(1)")
        }, done: { result in failed.withLock { $0 = (try? result.get()) == nil } })
        #expect(try await answer { store.setting("half", completion: $0) } == nil)
        #expect(failed.withLock { $0 } == true)
    }

    /// A write that catches the failure of a transaction of its own and carries on would otherwise
    /// commit what that transaction wrote before failing: the shared transaction is undone, the write
    /// is told, and the others commit.
    @Test func aWriteThatSwallowsAFailedTransactionIsStillUndoneAndTold() async throws {
        let store = try HistoryStore.inMemory()
        let swallower = Locked<String?>(nil)
        let others = Locked<[Bool]>([])
        store.together {
            store.insert(makeAsset("Before")) { result in others.withLock { $0.append((try? result.get()) != nil) } }
            store.write({ database throws(SQLiteError) -> Void in
                _ = try? database.connection.transaction { () throws(SQLiteError) in
                    try database.connection.execute("INSERT INTO settings(key, value) VALUES('half', 'done')")
                    try database.connection.execute("INSERT INTO no_such_table VALUES(1)")
                }
            }, done: { result in
                swallower.withLock { $0 = if case .failure(let error) = result { "\(error)" } else { "stored" } }
            })
            store.insert(makeAsset("After")) { result in others.withLock { $0.append((try? result.get()) != nil) } }
        }
        #expect(try await Set(store.recentPage(RecentQuery()).map(\.title)) == ["Before", "After"])
        #expect(try await answer { store.setting("half", completion: $0) } == nil)
        #expect(others.withLock { $0 } == [true, true])
        #expect(swallower.withLock { $0 }?.contains("no_such_table") == true)
    }

    /// A `COMMIT` can fail after every write succeeded (here a deferred foreign key, checked only
    /// then): the write that caused it hears the error, alone and in a group, and the others of its
    /// group are committed alone.
    @Test(arguments: [false, true])
    func aFailedCommitIsTheWritesAnswer(inAGroup: Bool) async throws {
        let store = try HistoryStore.inMemory()
        try await store.inspect { database throws(SQLiteError) in
            try database.connection.execute("""
                CREATE TABLE parent(id INTEGER PRIMARY KEY);
                CREATE TABLE child(p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
                """)
        }
        let orphan = Locked<Bool?>(nil)
        let other = Locked<Bool?>(nil)
        store.together {
            store.write({ database throws(SQLiteError) -> Void in
                try database.connection.execute("INSERT INTO child(p) VALUES(42)")
            }, done: { result in orphan.withLock { $0 = (try? result.get()) != nil } })
            if inAGroup {
                store.insert(makeAsset()) { result in other.withLock { $0 = (try? result.get()) != nil } }
            }
        }
        #expect(try await answer { store.count(completion: $0) } == (inAGroup ? 1 : 0))
        #expect(orphan.withLock { $0 } == false)
        #expect(other.withLock { $0 } == (inAGroup ? true : nil))
        let children = try await store.inspect { database throws(SQLiteError) in
            try database.connection.scalarInt("SELECT count(*) FROM child")
        }
        #expect(children == 0)
    }

    @Test func completionsRunOnlyAfterTheCommit() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.db")
        let store = try HistoryStore(path: path)
        let reader = try OtherConnection(path: path)
        let events = Locked<[String]>([])
        store.together {
            for title in ["A", "B"] {
                store.write({ database throws(SQLiteError) -> Void in
                    events.withLock { $0.append("run \(title)") }
                    try database.connection.execute("INSERT INTO settings(key, value) VALUES('\(title)', 'x')")
                }, done: { _ in
                    // Another connection sees only committed data: the write is on disk by now.
                    let visible = (try? reader.count("SELECT count(*) FROM settings WHERE key = '\(title)'")) == 1
                    events.withLock { $0.append("done \(title)\(visible ? "" : " (not committed!)")") }
                })
            }
        }
        _ = try await answer { store.count(completion: $0) }
        #expect(events.withLock { $0 } == ["run A", "run B", "done A", "done B"])
    }

    @Test func whenTheSharedTransactionIsLostEveryWriteRunsAgainAlone() async throws {
        let store = try HistoryStore.inMemory()
        let runs = Locked(0)
        let outcomes = Locked<[String]>([])
        store.together {
            store.write({ database throws(SQLiteError) -> Void in
                runs.withLock { $0 += 1 }
                try database.connection.execute("INSERT INTO settings(key, value) VALUES('first', 'x')")
            }, done: { result in outcomes.withLock { $0.append((try? result.get()) != nil ? "first stored" : "first failed") } })
            store.write({ database throws(SQLiteError) -> Void in
                // As SQLite does on SQLITE_FULL or an I/O error: the whole transaction is gone.
                if database.connection.isInTransaction { try database.connection.execute("ROLLBACK") }
                throw SQLiteError(code: .full, message: "database or disk is full")
            }, done: { result in outcomes.withLock { $0.append((try? result.get()) != nil ? "saboteur stored" : "saboteur failed") } })
            store.insert(makeAsset("Third")) { result in
                outcomes.withLock { $0.append((try? result.get()) != nil ? "third stored" : "third failed") }
            }
        }
        #expect(try await answer { store.count(completion: $0) } == 1)
        #expect(try await answer { store.setting("first", completion: $0) } == "x")
        #expect(outcomes.withLock { $0 } == ["first stored", "saboteur failed", "third stored"])
        // Once in the lost transaction, once alone.
        #expect(runs.withLock { $0 } == 2)
    }

    /// When the group's transaction cannot begin, its writes are answered with that error and never
    /// run: run without their transaction they would not be atomic, and beginning again for each
    /// would wait out the same lock once more per write.
    @Test func whenTheTransactionCannotBeginEveryWriteIsAnsweredUnrun() async throws {
        let store = try HistoryStore.inMemory()
        // A job that runs outside group commit leaves a transaction open: the next BEGIN fails at once.
        let opened = Locked<Bool?>(nil)
        store.perform({ database throws(StoreError) in
            try database.sql { () throws(SQLiteError) in try database.connection.execute("BEGIN") }
        }, completion: { result in opened.withLock { $0 = (try? result.get()) != nil } })
        let runs = Locked(0)
        let answers = Locked<[String]>([])
        store.together {
            for name in ["first", "second"] {
                store.write({ database throws(SQLiteError) -> Void in
                    runs.withLock { $0 += 1 }
                    try database.connection.execute("INSERT INTO settings(key, value) VALUES('\(name)', 'x')")
                }, done: { result in
                    answers.withLock { $0.append((try? result.get()) != nil ? "\(name) stored" : "\(name) refused") }
                })
            }
        }
        let closed = Locked<Bool?>(nil)
        store.perform({ database throws(StoreError) in
            try database.sql { () throws(SQLiteError) in try database.connection.execute("ROLLBACK") }
        }, completion: { result in closed.withLock { $0 = (try? result.get()) != nil } })
        try waitUntil("the rollback ran") { closed.withLock { $0 } != nil }
        #expect(opened.withLock { $0 } == true)
        #expect(answers.withLock { $0 } == ["first refused", "second refused"])
        #expect(runs.withLock { $0 } == 0)
        #expect(try await answer { store.setting("first", completion: $0) } == nil)
    }

    @Test func aReadEndsTheGroupAndSeesTheWritesBeforeIt() async throws {
        let store = try HistoryStore.inMemory()
        let read = Locked<Int?>(nil)
        let done = Locked<[String]>([])
        store.together {
            store.insert(makeAsset("A")) { _ in done.withLock { $0.append("A committed") } }
            store.count { result in
                done.withLock { $0.append("count answered") }
                read.withLock { $0 = try? result.get() }
            }
            store.insert(makeAsset("B")) { _ in done.withLock { $0.append("B committed") } }
        }
        #expect(try await answer { store.count(completion: $0) } == 2)
        #expect(read.withLock { $0 } == 1)
        #expect(done.withLock { $0 } == ["A committed", "count answered", "B committed"])
    }

    @Test func aTrackChangeFinishesOneListenAndOpensTheNextInOneCommit() async throws {
        let store = try HistoryStore.inMemory()
        let old = makeAsset("Old", started: 1)
        let new = makeAsset("New", started: 2)
        try await answer { store.saveOpenListen(key: "old", asset: old, checkpoint: 1, completion: $0) }
        let inOneTransaction = Locked<Bool?>(nil)
        store.together {
            store.finishOpenListen(key: "old", asset: old) { _ in }
            store.saveOpenListen(key: "new", asset: new, checkpoint: 2) { _ in }
            store.write({ database throws(SQLiteError) in database.connection.isInTransaction },
                        done: { result in inOneTransaction.withLock { $0 = try? result.get() } })
        }
        #expect(try await store.recentPage(RecentQuery()).map(\.title) == ["Old"])
        #expect(try await answer { store.openListens(completion: $0) }.map(\.key) == ["new"])
        #expect(inOneTransaction.withLock { $0 } == true)
    }

    @Test func closingInsideAUnitStillRunsWhatItHeld() async throws {
        let store = try HistoryStore.inMemory()
        let stored = Locked<Bool?>(nil)
        store.together {
            store.insert(makeAsset()) { result in stored.withLock { $0 = (try? result.get()) != nil } }
            store.close()
        }
        #expect(stored.withLock { $0 } == true)
    }

    @Test func aLargeBacklogIsCommittedInBoundedGroups() async throws {
        let store = try HistoryStore.inMemory()
        let inserted = Locked(0)
        let count = GroupCommit.maximumGroup * 2 + 3
        store.together {
            for index in 0..<count {
                store.insert(makeAsset("T\(index)", started: Int64(index))) { result in
                    if case .success = result { inserted.withLock { $0 += 1 } }
                }
            }
        }
        #expect(try await answer { store.count(completion: $0) } == count)
        #expect(inserted.withLock { $0 } == count)
    }
}

extension HistoryStore {
    /// Queues `body` as a write that shares a transaction with its neighbours; `done` gets its result
    /// once that transaction is committed.
    func write<T: Sendable>(
        _ body: @escaping @Sendable (HistoryDatabase) throws(SQLiteError) -> T,
        done: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        perform(.write, { database throws(StoreError) in try database.sql { () throws(SQLiteError) in try body(database) } },
                completion: done)
    }
}

/// A second connection to a store's file, which sees only what the store has committed.
// @unchecked Sendable: used from one thread at a time — the store thread's completions, which run one
// after another — and never concurrently with the test's own thread, which only creates it.
final class OtherConnection: @unchecked Sendable {
    private let connection: SQLiteDatabase

    init(path: String) throws {
        connection = try SQLiteDatabase(path: path, readOnly: true)
    }

    func count(_ sql: String) throws -> Int64? {
        try connection.scalarInt(sql)
    }
}
