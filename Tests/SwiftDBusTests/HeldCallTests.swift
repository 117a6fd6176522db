import Foundation
import SwiftDBus
import TestSupport
import Testing

/// A service may own its name before its object is ready: calls for a path promised with
/// `holdCalls(for:)` wait and are answered, in order, once the object is exported; a bounded number
/// wait; `Peer` and other paths answer as before; a service that closes instead leaves no caller
/// hanging.
///
/// Each test makes sure the service has read the calls before it exports: one client's messages
/// reach the service in the order they were sent, so once a `Ping` sent after them is answered,
/// they have been read and held.
@Suite struct HeldCallTests {
    /// Sends `calls` from the client in this order; their results arrive in the returned mailbox.
    /// They wait as long as a mailbox does: every unit test starts at once on the test pool's two
    /// threads, so the test that exports the object may run only long after it sent them.
    private func send(_ calls: [MethodCall], from pair: BusPair) -> Mailbox<Result<BusMessage, BusError>> {
        let results = Mailbox<Result<BusMessage, BusError>>()
        for call in calls { pair.client.call(call, timeout: .seconds(120)) { results.put($0) } }
        return results
    }

    /// Returns once the service has read everything the client sent before.
    private func serviceHasRead(_ pair: BusPair) async throws {
        _ = try await pair.client.call(pair.call(TestObject.path, .peer, "Ping"))
    }

    @Test func callsThatCameBeforeTheObjectAreAnsweredInOrderOnceItIsExported() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.holdCalls(for: TestObject.path)
        let object = TestObject()
        let results = send((1...3).map { pair.call(member: "Note", [.string("note \($0)")]) }
            + [pair.call(member: "Add", [.int32(40), .int32(2)])], from: pair)
        try await serviceHasRead(pair)
        #expect(results.count == 0, "nothing is answered before the object exists")
        #expect(object.notes.count == 0)

        pair.service.export(object.object)
        for _ in 1...3 { #expect(try await results.take().get().arguments == []) }
        #expect(try await results.take().get().arguments == [.int32(42)])
        #expect(try await [object.notes.take(), object.notes.take(), object.notes.take()] == ["note 1", "note 2", "note 3"])
    }

    @Test func peerAndOtherPathsAnswerWhileCallsAreHeld() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.holdCalls(for: TestObject.path)
        _ = try await pair.client.call(pair.call(TestObject.path, .peer, "Ping"))
        let elsewhere = await callError(pair.client, pair.call("/org/mediabroker/Elsewhere", TestObject.interface, "Add", [.int32(1), .int32(2)]))
        #expect(elsewhere?.name == .unknownObject)
        // Held calls are not lost by the answers given meanwhile.
        let results = send([pair.call(member: "Add", [.int32(1), .int32(2)])], from: pair)
        try await serviceHasRead(pair)
        pair.service.export(TestObject().object)
        #expect(try await results.take().get().arguments == [.int32(3)])
    }

    @Test func beyondTheLimitCallersAreToldToTryAgainAndNothingMoreIsKept() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.holdCalls(for: TestObject.path)
        let object = TestObject()
        let limit = BusConnection.heldCallLimit
        // Calls that want no reply fill the queue (the test bus lets one connection wait for only
        // 128 replies), then a few more of each kind.
        for index in 0..<(limit + 5) {
            try pair.client.send(pair.call(member: "Note", [.string("note \(index)")]))
        }
        let refused = send([pair.call(member: "Add", [.int32(1), .int32(1)]), pair.call(member: "Add", [.int32(2), .int32(2)])], from: pair)
        try await serviceHasRead(pair)
        for _ in 0..<2 {
            guard case .failure(let error) = try await refused.take() else {
                Issue.record("a call beyond the limit got a return")
                continue
            }
            #expect(error.name == .limitsExceeded)
            #expect(error.message.contains("try again"))
        }
        pair.service.export(object.object)
        try waitUntil("the held notes are handled") { object.notes.count == limit }
        try await serviceHasRead(pair)
        #expect(object.notes.count == limit, "the calls beyond the limit were not kept")
        #expect(try await object.notes.take() == "note 0")
    }

    @Test func aServiceThatClosesWithCallsHeldLeavesNoCallerWaiting() async throws {
        let pair = try BusPair.start()
        defer { pair.client.close() }
        pair.service.holdCalls(for: TestObject.path)
        let results = send([pair.call(member: "Add", [.int32(1), .int32(2)])], from: pair)
        try await serviceHasRead(pair)
        pair.service.close()
        guard case .failure(let error) = try await results.take() else {
            Issue.record("a call to a service that went away got a return")
            return
        }
        #expect(error.name == .noReply)
    }
}
