import Foundation
import SwiftDBus
import TestSupport
import Testing

/// A connection's calls: timeouts, error replies, many at once; its life: closing, and the bus
/// going away.
@Suite struct ConnectionTests {
    @Test func aCallNobodyAnswersFailsWithNoReplyAfterItsTimeout() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let object = TestObject()  // keeps every held invocation alive, unanswered
        pair.service.export(object.object)
        let start = ContinuousClock.now
        let error = await callError(pair.client, pair.call(member: "Hold"), timeout: .milliseconds(500))
        let elapsed = ContinuousClock.now - start
        #expect(error?.name == .noReply)
        #expect(elapsed >= .milliseconds(500), "failed before its timeout: \(elapsed)")
        // Its own timeout, not the default 25 s: the error says which (the elapsed time cannot tell
        // when the test pool's two threads are busy and the test resumes late).
        #expect(error?.message.contains("within 500 ms") == true, "\(String(describing: error)), after \(elapsed)")
        #expect(object.held.count == 1, "the call reached the service and is still unanswered")
    }

    @Test func aLateAnswerAfterTheTimeoutIsDroppedAndTheConnectionGoesOn() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let object = TestObject()
        pair.service.export(object.object)
        #expect(await callError(pair.client, pair.call(member: "Hold"), timeout: .milliseconds(100))?.name == .noReply)
        try await object.held.take().reply([.string("too late")])
        #expect(try await pair.client.call(pair.call(member: "Add", [.int32(2), .int32(2)])).arguments == [.int32(4)])
    }

    @Test func errorRepliesFromTheBusCarryTheirNamesAndMessages() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        do {
            _ = try await pair.client.callBus("GetNameOwner", [.string("org.mediabroker.Nobody")])
            Issue.record("GetNameOwner of a name nobody owns answered")
        } catch {
            #expect(error.name == .nameHasNoOwner)
            #expect(error.message.contains("org.mediabroker.Nobody"), "\(error.message)")
        }
        let unknown = await callError(pair.client, MethodCall(destination: "org.mediabroker.Nobody", path: "/", interface: .peer, member: "Ping"))
        #expect(unknown?.name == .serviceUnknown)
    }

    @Test func theFirstConnectionToAskForANameOwnsItAndASecondIsToldItExists() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let name: BusName = "org.mediabroker.Test.Owned"
        #expect(try await pair.service.requestName(name) == .primaryOwner)
        #expect(try await pair.client.requestName(name) == .exists)
        #expect(try await pair.service.requestName(name) == .alreadyOwner)
        #expect(try await pair.client.nameOwner(of: name) == pair.service.uniqueName)
        #expect(try await pair.client.nameOwner(of: "org.mediabroker.Test.Nobody") == nil)
    }

    @Test func theBusListsNamesAndKnowsEachConnectionsProcess() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        #expect(try await pair.service.requestName("org.mediabroker.Test.Listed") == .primaryOwner)
        let names = try await pair.client.listNames()
        #expect(Set(names).isSuperset(of: ["org.freedesktop.DBus", "org.mediabroker.Test.Listed", pair.service.uniqueName, pair.client.uniqueName]))
        #expect(try await pair.client.processID(of: pair.service.uniqueName) == UInt32(getpid()))
        #expect(try await pair.client.processID(of: "org.freedesktop.DBus") == UInt32(pair.bus.daemon.pid))
    }

    @Test func aThousandConcurrentCallsFromEightTasksAllGetTheirOwnAnswers() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let wrong = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for index in 0..<125 {
                        let a = Int32(task * 1000 + index)
                        let reply = try await pair.client.call(pair.call(member: "Add", [.int32(a), .int32(a)]))
                        if reply.arguments != [.int32(2 * a)] { wrong += 1 }
                    }
                    return wrong
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }

    /// The test bus keeps dbus-daemon's default of 128 pending replies per connection (a session
    /// bus allows 50,000), so some of the calls may be refused by the bus: each completion still
    /// runs exactly once, with the right sum or the bus's own LimitsExceeded.
    @Test func aThousandCallsInFlightAtOnceEachCompleteOnce() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let answers = Locked<[Int32: [Result<[DBusValue], BusError>]]>([:])
        for a in Int32(0)..<1000 {
            pair.client.call(pair.call(member: "Add", [.int32(a), .int32(1)])) { result in
                answers.withLock { $0[a, default: []].append(result.map(\.arguments)) }
            }
        }
        try await waitUntil("every completion ran", timeout: .seconds(60)) { () async in answers.withLock { $0.count } == 1000 }
        let all = answers.withLock { $0 }
        #expect(all.values.allSatisfy { $0.count == 1 })
        let wrong = all.filter { a, results in
            switch results.first {
            case .success(let values)?: values != [.int32(a + 1)]
            case .failure(let error)?: error.name != .limitsExceeded
            case nil: true
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, e.g. \(wrong.first.map { "\($0)" } ?? "")")
        #expect(all.values.filter { (try? $0.first?.get()) != nil }.count >= 128)
    }

    @Test func closingTwiceIsSafeAndLaterCallsFailAtOnceWithDisconnected() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        pair.client.close()
        pair.client.close()
        #expect(!pair.client.isConnected)
        let start = ContinuousClock.now
        let error = await callError(pair.client, pair.call(member: "Add", [.int32(1), .int32(2)]), timeout: .seconds(20))
        #expect(error?.name == .disconnected)
        #expect(ContinuousClock.now - start < .seconds(2))
        await #expect(throws: BusError.self) { try await pair.client.addMatch(MatchRule(member: "Anything")) { _ in } }
    }

    @Test func signalsAndOneWayCallsAfterCloseAreErrors() throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.client.close()
        #expect(throws: BusError(.disconnected, "the connection is closed")) {
            try pair.client.emit(SignalEmission(path: "/x", interface: "org.mediabroker.Test.Closed", member: "Late"))
        }
        #expect(throws: BusError(.disconnected, "the connection is closed")) { try pair.client.send(pair.call(member: "Note", [.string("late")])) }
    }

    @Test func callsPendingWhenTheBusGoesAwayFailWithDisconnectedAndDisconnectHandlersRun() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let object = TestObject()
        pair.service.export(object.object)
        let disconnected = Mailbox<String>()
        pair.client.onDisconnect { disconnected.put("client") }
        pair.service.onDisconnect { disconnected.put("service") }
        // A handler registered before the next call has surely been stored, as the loop runs work in order.
        async let pending = callError(pair.client, pair.call(member: "Hold"), timeout: .seconds(60))
        let held = try await object.held.take()  // kept unanswered until the bus is gone
        defer { withExtendedLifetime(held) {} }

        pair.bus.stop()
        let error = await pending
        #expect(error?.name == .disconnected)
        let first = try await disconnected.take()
        let second = try await disconnected.take()
        #expect(Set([first, second]) == ["client", "service"])
        try waitUntil("both connections say they are disconnected") { !pair.client.isConnected && !pair.service.isConnected }
        #expect(await callError(pair.client, pair.call(member: "Add", [.int32(1), .int32(1)]))?.name == .disconnected)
    }
}

/// Calls racing the end of a connection: whatever `call` accepted gets its completion, whether
/// the bus went away or the connection was closed. Rounds run one at a time: each keeps a thread
/// busy submitting calls.
@Suite(.serialized) struct ConnectionEndRaceTests {
    /// Counts shared between a submitting thread, completions and the test.
    final class Tally: Sendable {
        let submitted = Locked(0)
        let completed = Locked(0)
        let running = Locked(true)
        var inFlight: Int { submitted.withLock { $0 } - completed.withLock { $0 } }
    }

    /// Submits calls as fast as one thread can (at most 2,000 unanswered) until `end` has ended
    /// the connection, and 500 more after; then waits until every submitted call got its completion.
    static func hammer(_ connection: BusConnection, _ call: MethodCall, end: () -> Void) throws {
        let tally = Tally()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var after = 0
            while tally.running.withLock({ $0 }) || after < 500 {
                if !tally.running.withLock({ $0 }) { after += 1 }
                if tally.inFlight > 2_000 && tally.running.withLock({ $0 }) {
                    sched_yield()
                    continue
                }
                tally.submitted.withLock { $0 += 1 }
                connection.call(call, timeout: .seconds(60)) { _ in tally.completed.withLock { $0 += 1 } }
            }
            finished.signal()
        }
        var joined = false
        defer {
            // Also when a wait below fails: the thread must not outlive the test.
            if !joined {
                tally.running.withLock { $0 = false }
                finished.wait()
            }
        }
        try waitUntil("some calls are on their way") { tally.submitted.withLock { $0 } > 200 }
        end()
        try waitUntil("the connection has ended") { !connection.isConnected }
        tally.running.withLock { $0 = false }
        finished.wait()
        joined = true
        let submitted = tally.submitted.withLock { $0 }
        try waitUntil("every call submitted got its completion (\(submitted) submitted)", timeout: .seconds(20)) {
            tally.completed.withLock { $0 } == submitted
        }
    }

    @Test(arguments: 0..<5)
    func everyCallSubmittedAsTheBusGoesAwayIsCompleted(_ round: Int) throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        try Self.hammer(pair.client, pair.call(member: "Add", [.int32(1), .int32(1)])) { pair.bus.stop() }
    }

    @Test(arguments: 0..<5)
    func everyCallSubmittedAsTheConnectionClosesIsCompleted(_ round: Int) throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        try Self.hammer(pair.client, pair.call(member: "Add", [.int32(1), .int32(1)])) { pair.client.close() }
    }
}
