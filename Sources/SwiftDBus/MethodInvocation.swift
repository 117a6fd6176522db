import Synchronization

/// A method call to an exported object, waiting for its answer.
///
/// Answer exactly once, with ``reply(_:)`` or ``fail(_:)``, from any thread, now or later. An
/// invocation released without an answer replies `org.freedesktop.DBus.Error.Failed`, so a
/// caller never waits for its timeout because of a forgotten path.
public final class MethodInvocation: Sendable {
    public let message: BusMessage
    private let declaredReply: Signature
    private let loop: EventLoop
    /// Touched only inside `loop.execute` work, on the loop's thread.
    private let core: ConnectionCore
    private let answered = Atomic<Bool>(false)

    init(message: BusMessage, declaredReply: Signature, core: ConnectionCore, loop: EventLoop) {
        self.message = message
        self.declaredReply = declaredReply
        self.core = core
        self.loop = loop
    }

    /// The call's arguments, already checked against the method's declared input signature.
    public var arguments: [DBusValue] { message.arguments }
    /// The caller's unique bus name.
    public var sender: String? { message.sender }

    /// Answers with `values`, which must match the method's declared outputs; a mismatch is a bug
    /// in this process and is answered with `Failed` naming both signatures.
    public func reply(_ values: [DBusValue] = []) {
        let signature = Signature.sequence(values.map(\.signature))
        guard signature == declaredReply else {
            fail(.failed("internal error: reply signature '\(signature)' does not match the declared '\(declaredReply)'"))
            return
        }
        do {
            try Marshalling.check(values)
        } catch {
            fail(.failed("internal error: \(error.reason)"))
            return
        }
        answer(.reply(address, ValueArguments(values)))
    }

    /// Answers with arguments that write themselves (see ``MessageArguments``), which must match the
    /// method's declared outputs.
    public func reply(_ body: some MessageArguments) {
        guard body.signature == declaredReply else {
            fail(.failed("internal error: reply signature '\(body.signature)' does not match the declared '\(declaredReply)'"))
            return
        }
        answer(.reply(address, body))
    }

    /// Answers with an error reply.
    public func fail(_ error: BusError) {
        answer(.error(address, error))
    }

    /// Answers with an empty reply, or with `error` when there is one: the end of a method that
    /// returns nothing, handed on as a completion.
    public func finish(_ error: BusError?) {
        if let error { fail(error) } else { reply() }
    }

    deinit {
        if !answered.load(ordering: .acquiring) {
            answer(.error(address, .failed("the method did not answer")))
        }
    }

    private var address: ReplyAddress { ReplyAddress(serial: message.serial, sender: message.sender) }

    private func answer(_ outgoing: Outgoing) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing), message.expectsReply else { return }
        let core = core
        // Answered on the connection's own thread (a handler that could answer at once): sent now,
        // as the object table sends its immediate answers, rather than after another turn of the
        // loop and a write to its wake pipe.
        if loop.isCurrent {
            core.send(outgoing)
        } else {
            loop.execute { core.send(outgoing) }
        }
    }
}
