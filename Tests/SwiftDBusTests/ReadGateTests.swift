import Synchronization
import SwiftDBus
import TestSupport
import Testing

/// `readOnlyWhile`: a connection that stops reading leaves what peers send in the socket (issue 16's
/// back-pressure), and reads it all once its condition holds again — with nothing else to wake it.
@Suite struct ReadGateTests {
    final class Gate: Sendable {
        let open = Atomic<Bool>(true)
        let asked = Atomic<Int>(0)
        func mayRead() -> Bool {
            asked.add(1, ordering: .relaxed)
            return open.load(ordering: .acquiring)
        }
    }

    @Test func callsWaitWhileReadingIsPausedAndAreAnsweredOnceItResumes() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let gate = Gate()
        pair.service.readOnlyWhile({ gate.mayRead() }, recheckEvery: .milliseconds(5))
        #expect(try await pair.client.call(pair.call(member: "Add", [.int32(1), .int32(1)])).arguments == [.int32(2)])

        gate.open.store(false, ordering: .releasing)
        // The gate is asked before each sleep: a wake-up with nothing to read makes the loop ask.
        let before = gate.asked.load(ordering: .relaxed)
        pair.service.loop.execute {}
        try waitUntil("the gate is asked while closed") { gate.asked.load(ordering: .relaxed) > before }
        let waiting = await callError(pair.client, pair.call(member: "Add", [.int32(2), .int32(2)]), timeout: .milliseconds(300))
        #expect(waiting?.name == .noReply, "answered while reading was paused")
        let askedWhileClosed = gate.asked.load(ordering: .relaxed)
        try waitUntil("the closed gate is asked again, with nothing else to wake the loop") {
            gate.asked.load(ordering: .relaxed) > askedWhileClosed + 2
        }

        gate.open.store(true, ordering: .releasing)
        #expect(try await pair.client.call(pair.call(member: "Add", [.int32(3), .int32(3)])).arguments == [.int32(6)])
    }
}
