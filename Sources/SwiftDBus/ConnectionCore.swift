internal import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// The part of a ``BusConnection`` that lives on its loop's thread: the libdbus handle, calls
/// waiting for replies, signal handlers and exported objects.
///
/// Messages are pulled, not dispatched through libdbus callbacks: after every wake-up the loop
/// reads what the socket has and pops every queued message, routing each in Swift.
// @unchecked Sendable: references travel between threads only to be handed back to the loop
// (inside `EventLoop.execute` work); every member is read and written on the loop's thread alone.
final class ConnectionCore: @unchecked Sendable {
    private var raw: OpaquePointer?
    private unowned let loop: EventLoop
    private var pending: [UInt32: Pending] = [:]
    private var handlers: [SignalHandler] = []
    private var nextHandlerID: UInt64 = 0
    private var watchID: UInt64?
    private var names = HeaderNames()
    var disconnectHandlers: [@Sendable () -> Void] = []
    var objects = ObjectTable()
    /// Asked before each sleep: while it answers `false` the socket is not read (see
    /// ``BusConnection/readOnlyWhile(_:recheckEvery:)``).
    private var mayRead: () -> Bool = { true }
    private var recheckInterval: Duration = .milliseconds(5)
    /// The timer that looks at `mayRead` again while reading is paused.
    private var recheck: UInt64?

    /// The most bytes of received messages libdbus holds before it stops reading the socket. The
    /// broker routes every message as soon as it is read, so this bounds what a burst of large
    /// messages can make it hold, not what it reads in a second.
    static let maximumReceivedBytes = 1 << 20

    /// A class, so that routing a signal past every handler copies one reference each, not a rule
    /// of seven optional strings and a closure.
    private final class SignalHandler {
        let id: UInt64
        let rule: MatchRule
        let handler: @Sendable (BusMessage) -> Void
        /// Runs once when the match ends: removed, or the connection closed or lost.
        let ended: @Sendable () -> Void

        init(id: UInt64, rule: MatchRule, handler: @escaping @Sendable (BusMessage) -> Void, ended: @escaping @Sendable () -> Void) {
            self.id = id
            self.rule = rule
            self.handler = handler
            self.ended = ended
        }

        func receive(_ message: BusMessage) {
            if rule.matches(message) { handler(message) }
        }
    }

    private struct Pending {
        var timer: UInt64
        /// Whether the reply arrives decoded (see ``BusConnection/call(_:timeout:decodingReply:completion:)``).
        var decodingReply: Bool
        var completion: @Sendable (Result<BusMessage, BusError>) -> Void
    }

    /// The loop, for invocations that answer from other threads.
    var loopForInvocations: EventLoop { loop }

    init(raw: OpaquePointer, loop: EventLoop) {
        self.raw = raw
        self.loop = loop
    }

    deinit {
        if let raw {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
        }
    }

    /// Starts watching the socket. Runs on the loop's thread.
    ///
    /// The corresponding libdbus call is `dbus_connection_get_unix_fd`.
    func start() {
        guard let raw else { return }
        var descriptor: Int32 = -1
        guard dbus_connection_get_unix_fd(raw, &descriptor) != 0 else {
            shutDown(reason: BusError(.disconnected, "the connection has no socket"))
            return
        }
        dbus_connection_set_max_received_size(raw, Self.maximumReceivedBytes)
        watchID = loop.watch(descriptor, events: { [unowned self] in
            // Ask for POLLOUT only while libdbus has bytes queued, or poll would spin.
            guard let raw = self.raw else { return 0 }
            let writing = dbus_connection_has_messages_to_send(raw) != 0 ? Int16(POLLOUT) : 0
            return (self.readingAllowed() ? Int16(POLLIN) : 0) | writing
        }, handler: { [unowned self] _ in
            self.readAndWrite()
        })
        // The loop keeps the core until its thread ends (it then drops its hooks), so a connection
        // whose last reference goes inside one of its own handlers leaves the core to the loop,
        // which closes it and routes nothing more. The source above is removed by `shutDown`,
        // which these hooks outlive, so it may hold the core unowned.
        loop.afterEachWakeUp { self.drain() }
        loop.onStop { self.shutDown(reason: BusError(.disconnected, "the connection was closed")) }
    }

    /// Reads only while `condition` holds; while it does not, looks again every `interval`.
    func readOnlyWhile(_ condition: @escaping () -> Bool, recheckEvery interval: Duration) {
        mayRead = condition
        recheckInterval = interval
    }

    /// Whether to read the socket now; when not, a timer wakes the loop to ask again (a wake-up
    /// alone makes the loop ask before its next sleep).
    private func readingAllowed() -> Bool {
        if mayRead() { return true }
        if recheck == nil {
            recheck = loop.schedule(after: recheckInterval) { [unowned self] in self.recheck = nil }
        }
        return false
    }

    /// Moves bytes between the socket and libdbus's queues without blocking.
    ///
    /// The corresponding libdbus call is `dbus_connection_read_write` with a zero timeout.
    private func readAndWrite() {
        guard let raw else { return }
        if dbus_connection_read_write(raw, 0) == 0 || dbus_connection_get_is_connected(raw) == 0 {
            drain()
            busWentAway()
        }
    }

    /// Routes every message libdbus has queued.
    ///
    /// The corresponding libdbus call is `dbus_connection_pop_message`.
    private func drain() {
        while let raw, let message = dbus_connection_pop_message(raw) {
            route(message)
            dbus_message_unref(message)
        }
    }

    private func route(_ raw: OpaquePointer) {
        let type = dbus_message_get_type(raw)
        if type == cdbus_message_type_method_return || type == cdbus_message_type_error {
            // A reply nobody waits for any more (it timed out) is dropped unread.
            guard let waiting = pending.removeValue(forKey: dbus_message_get_reply_serial(raw)) else { return }
            loop.cancelTimer(waiting.timer)
            do {
                let reply = try BusMessage(reading: raw, names: &names, decodingArguments: waiting.decodingReply)
                waiting.completion(reply.error.map { .failure($0) } ?? .success(reply))
            } catch {
                waiting.completion(.failure(BusError(.failed, "unreadable reply: \(error.reason)")))
            }
            return
        }
        if dbus_message_is_signal(raw, DBUS_INTERFACE_LOCAL, "Disconnected") != 0 {
            busWentAway()
            return
        }
        let message: BusMessage
        do {
            // A signal is decoded only if a handler asks (see `BusMessage`); a method call is
            // decoded now, within the limits of the method it calls, and refused unread beyond them.
            let isCall = type == cdbus_message_type_method_call
            message = try BusMessage(reading: raw, names: &names) { [objects] path, interface, member in
                isCall ? objects.limits(path: path, interface: interface, member: member) : nil
            }
        } catch {
            if type == cdbus_message_type_method_call, dbus_message_get_no_reply(raw) == 0 {
                let address = ReplyAddress(serial: dbus_message_get_serial(raw),
                                           sender: dbus_message_get_sender(raw).map { String(cString: $0) })
                send(.error(address, .invalidArgs(error.reason)))
            }
            return
        }
        switch message.kind {
        case .signal:
            for entry in handlers { entry.receive(message) }
        case .methodCall:
            let promised = objects.takeIfPromised(message)
            if promised.taken {
                if let refusal = promised.refusal { send(refusal) }
            } else if let answer = objects.handle(message, connection: self) {
                send(answer)
            }
        default:
            break
        }
    }

    // MARK: Sending

    /// Sends `outgoing`; returns its serial, or `nil` when the connection is gone or memory ran out.
    ///
    /// The corresponding libdbus call is `dbus_connection_send`; it queues the message and writes
    /// what the socket takes now, the rest when poll says the socket is writable.
    @discardableResult
    func send(_ outgoing: Outgoing) -> UInt32? {
        guard let raw, let message = outgoing.makeMessage() else { return nil }
        defer { dbus_message_unref(message) }
        var serial: UInt32 = 0
        guard dbus_connection_send(raw, message, &serial) != 0 else { return nil }
        return serial
    }

    func send(_ call: MethodCall, timeout: Int64, decodingReply: Bool, completion: @escaping @Sendable (Result<BusMessage, BusError>) -> Void) {
        guard raw != nil else {
            completion(.failure(BusError(.disconnected, "the connection is closed")))
            return
        }
        guard let serial = send(.methodCall(call, expectsReply: true)) else {
            completion(.failure(BusError(.noMemory, "could not send \(call.member)")))
            return
        }
        let member = call.member
        let timer = loop.schedule(after: .microseconds(timeout)) { [unowned self] in
            guard let expired = self.pending.removeValue(forKey: serial) else { return }
            expired.completion(.failure(BusError(.noReply, "no reply to \(member) within \(timeout / 1000) ms")))
        }
        pending[serial] = Pending(timer: timer, decodingReply: decodingReply, completion: completion)
    }

    // MARK: Handlers

    func addHandler(_ rule: MatchRule, _ handler: @escaping @Sendable (BusMessage) -> Void, ended: @escaping @Sendable () -> Void = {}) -> UInt64 {
        guard raw != nil else { return 0 }
        nextHandlerID += 1
        handlers.append(SignalHandler(id: nextHandlerID, rule: rule, handler: handler, ended: ended))
        return nextHandlerID
    }

    func removeHandler(_ id: UInt64) {
        guard let index = handlers.firstIndex(where: { $0.id == id }) else { return }
        handlers.remove(at: index).ended()
    }

    /// Serves `object`, then answers the calls held for its path, in the order they came.
    func export(_ object: ExportedObject) {
        for call in objects.export(object) {
            if let answer = objects.handle(call, connection: self) { send(answer) }
        }
    }

    func emitPropertiesChanged(path: ObjectPath, interface: InterfaceName, names: [MemberName]) {
        guard let signal = objects.propertiesChanged(path: path, interface: interface, names: names) else { return }
        send(.signal(signal))
    }

    // MARK: Ending

    private func busWentAway() {
        guard raw != nil else { return }
        let handlers = disconnectHandlers
        shutDown(reason: BusError(.disconnected, "the bus connection was lost"))
        for handler in handlers { handler() }
    }

    /// Fails what waits, drops handlers and closes the handle. Runs on the loop's thread.
    func shutDown(reason: BusError) {
        guard let raw else { return }
        if dbus_connection_get_is_connected(raw) != 0 { dbus_connection_flush(raw) }
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
        self.raw = nil
        if let watchID { loop.unwatch(watchID) }
        let waiting = pending
        pending.removeAll()
        for (_, call) in waiting {
            loop.cancelTimer(call.timer)
            call.completion(.failure(reason))
        }
        // Taken out first: an `ended` may release the connection or cancel its token.
        let ending = handlers
        handlers.removeAll()
        disconnectHandlers.removeAll()
        objects = ObjectTable()
        loop.quit()
        for entry in ending { entry.ended() }
    }
}
