import Foundation
import SwiftDBus
import TestSupport
import Testing

/// How a handler answers: now or later, from any thread; an invocation dropped without an answer,
/// or answered with values that do not fit the declaration, still gets the caller an error at once;
/// a call that expects no reply runs its handler and gets nothing back.
@Suite struct MethodInvocationTests {
    @Test func aHandlerMayAnswerLaterFromAnotherThread() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let object = TestObject()
        pair.service.export(object.object)
        // Generous deadlines: in the parallel suite (and under ThreadSanitizer) tests that block
        // cooperative threads can delay this child task by seconds; what is tested is who answers.
        async let reply = pair.client.call(pair.call(member: "Hold"), timeout: .seconds(120))
        let invocation = try await object.held.take()
        #expect(invocation.sender == pair.client.uniqueName)
        #expect(invocation.message.expectsReply)
        // The handler has returned long ago; the answer comes from a thread the loop does not own.
        let answered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            invocation.reply([.string("later")])
            answered.signal()
        }
        answered.wait()
        #expect(try await reply.arguments == [.string("later")])
    }

    @Test func onlyTheFirstAnswerCounts() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let object = TestObject()
        pair.service.export(object.object)
        async let reply = pair.client.call(pair.call(member: "Hold"))
        let invocation = try await object.held.take()
        invocation.reply([.string("first")])
        invocation.fail(.failed("second"))
        invocation.reply([.string("third")])
        #expect(try await reply.arguments == [.string("first")])
    }

    @Test func anInvocationDroppedWithoutAnAnswerFailsAtOnceRatherThanTimingOut() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let start = ContinuousClock.now
        // "At once" against a 120 s timeout: the parallel suite can delay a task by seconds.
        let error = await callError(pair.client, pair.call(member: "Forget"), timeout: .seconds(120))
        #expect(error?.name == .failed)
        #expect(error?.message == "the method did not answer")
        #expect(ContinuousClock.now - start < .seconds(60))
    }

    @Test func aReplyThatDoesNotMatchTheDeclaredOutputsIsAFailure() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let error = await callError(pair.client, pair.call(member: "ReplyWrongly"))
        #expect(error?.name == .failed)
        #expect(error?.message.contains("'i'") == true && error?.message.contains("'s'") == true, "\(String(describing: error))")
    }

    @Test func aReplyThatCannotBeMarshalledIsAFailure() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let error = await callError(pair.client, pair.call(member: "ReplyTooDeep"))
        #expect(error?.name == .failed)
        #expect(error?.message.contains("deep") == true, "\(String(describing: error))")
    }

    /// Watches the bus with `dbus-monitor` and waits until it is listening.
    static func monitor(_ bus: PrivateBus) throws -> ChildProcess {
        let monitor = try ChildProcess.launch("dbus-monitor", arguments: ["--address", bus.address])
        // dbus-monitor becomes a monitor and then sees the bus telling it so (NameLost).
        try monitor.waitForOutput(containing: "member=NameLost", in: .standardOutput, timeout: .seconds(10))
        return monitor
    }

    @Test func aCallThatExpectsNoReplyRunsItsHandlerAndGetsNothingBack() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let object = TestObject()
        pair.service.export(object.object)
        let monitor = try Self.monitor(pair.bus)
        defer { monitor.signal(SIGTERM) }

        try pair.client.send(pair.call(member: "Note", [.string("quiet")]))
        try pair.client.send(pair.call(member: "Fail"))
        try pair.client.send(pair.call(member: "NoSuchMethod"))
        try pair.client.send(pair.call(member: "Add", [.string("wrong signature")]))
        #expect(try await object.notes.take() == "quiet")
        // A call that does want its answer, after the others: once its reply is seen, any answer
        // to the calls before it would have been seen too.
        _ = try await pair.client.call(pair.call(member: "Note", [.string("loud")]))
        #expect(try await object.notes.take() == "loud")
        let service = pair.service.uniqueName
        try waitUntil("dbus-monitor shows the answer to the last call") {
            monitor.standardOutput.contains("method return") && monitor.standardOutput.contains("sender=\(service)")
        }
        let answers = monitor.standardOutput.split(separator: "\n").filter { line in
            (line.hasPrefix("method return") || line.hasPrefix("error")) && line.contains("sender=\(service) ")
        }
        #expect(answers.count == 1, "the service answered calls that expected no reply:\n\(monitor.standardOutput)")
    }
}
