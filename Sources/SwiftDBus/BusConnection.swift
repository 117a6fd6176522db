import Locking
import Clocks
internal import CDBus
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A connection to a message bus, owned by one thread.
///
/// The connection's ``EventLoop`` thread is the only code that touches the libdbus handle: every
/// call here hands work to it. Handlers given to the connection (signal handlers, method
/// handlers, completions) run on that thread and must not block. When the bus goes away, pending
/// calls fail with `Disconnected` and the handlers given to ``onDisconnect(_:)`` run.
///
/// Call ``close()`` when done: handlers that capture the connection keep it alive.
public final class BusConnection: Sendable {
    /// The loop that owns the connection; also usable for timers and extra file descriptors.
    public let loop: EventLoop
    /// The name the bus assigned to this connection, e.g. `:1.42`.
    public let uniqueName: String
    /// Only ever touched inside `loop.execute` work, or in handlers the loop runs.
    let core: ConnectionCore

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`, or libdbus's default), blocking
    /// until the bus has accepted us.
    ///
    /// The corresponding libdbus call is `dbus_bus_get_private` (private: this object owns it).
    public static func session() throws(BusError) -> BusConnection {
        let raw = try withBusError { error in dbus_bus_get_private(DBUS_BUS_SESSION, error) }
        return try BusConnection(taking: raw)
    }

    /// Connects to the bus at `address` and registers with it, blocking until done.
    ///
    /// The corresponding libdbus calls are `dbus_connection_open_private` and `dbus_bus_register`.
    public static func connect(to address: String) throws(BusError) -> BusConnection {
        let raw = try withBusError { error in dbus_connection_open_private(address, error) }
        var error = DBusError()
        dbus_error_init(&error)
        guard dbus_bus_register(raw, &error) != 0 else {
            let failure = BusError(consuming: &error)
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw failure
        }
        return try BusConnection(taking: raw)
    }

    private init(taking raw: OpaquePointer) throws(BusError) {
        dbus_connection_set_exit_on_disconnect(raw, 0)
        uniqueName = dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw error
        }
        self.loop = loop
        core = ConnectionCore(raw: raw, loop: loop)
        let core = core
        // From here on only the loop's thread touches `raw`.
        loop.execute { core.start() }
    }

    deinit { close() }

    /// Flushes what is queued, closes the connection and ends its thread. Safe to call twice.
    ///
    /// The corresponding libdbus calls are `dbus_connection_flush`, `dbus_connection_close` and
    /// `dbus_connection_unref`.
    public func close() {
        let core = core
        loop.execute { core.shutDown(reason: BusError(.disconnected, "the connection was closed")) }
        loop.stop()
    }

    /// `false` once the bus went away or the connection was closed.
    public var isConnected: Bool { !loop.hasFinished }

    /// Runs `handler` on the connection's thread when the bus goes away (not on ``close()``).
    public func onDisconnect(_ handler: @escaping @Sendable () -> Void) {
        let core = core
        loop.execute { core.disconnectHandlers.append(handler) }
    }

    // MARK: Calls

    /// Calls a method; `completion` runs on the connection's thread with the reply, or with the
    /// error reply, a timeout (`NoReply`) or `Disconnected`.
    ///
    /// With `decodingReply` false the reply's values are not decoded on the connection's thread:
    /// the caller reads its ``BusMessage/body`` where it lies (``MessageBody/read(_:)``) — for a
    /// large reply of which it keeps its own types, not a tree of ``DBusValue``s — or decodes it
    /// with ``BusMessage/arguments`` on first use.
    public func call(
        _ call: MethodCall, timeout: Duration = .seconds(25), decodingReply: Bool = true,
        completion: @escaping @Sendable (Result<BusMessage, BusError>) -> Void
    ) {
        do {
            try Marshalling.check(call.arguments)
        } catch {
            completion(.failure(.invalidArgs(error.reason)))
            return
        }
        let core = core
        let timeoutMicroseconds = max(0, timeout.wholeMicroseconds)
        let submitted = loop.execute { core.send(call, timeout: timeoutMicroseconds, decodingReply: decodingReply, completion: completion) }
        if !submitted { completion(.failure(BusError(.disconnected, "the connection is closed"))) }
    }

    /// Calls a method and waits for its reply. An error reply throws it as a ``BusError``.
    /// `decodingReply` as for ``call(_:timeout:decodingReply:completion:)``.
    public func call(_ call: MethodCall, timeout: Duration = .seconds(25), decodingReply: Bool = true) async throws(BusError) -> BusMessage {
        // The reply is read on the connection's thread and used on the caller's. The continuation
        // orders the two, but ThreadSanitizer cannot see that on Linux and would report every value
        // read after the `await`; handing the reply over under a pthread mutex shows it the order.
        let handOver = Locked<Result<BusMessage, BusError>?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            self.call(call, timeout: timeout, decodingReply: decodingReply) { result in
                handOver.withLock { $0 = result }
                continuation.resume()
            }
        }
        guard let result = handOver.withLock({ $0 }) else { throw BusError(.failed, "the call to \(call.member) ended without an answer") }
        return try result.get()
    }

    /// Sends a method call that expects no reply. Throws `InvalidArgs` for arguments D-Bus cannot
    /// carry, and `Disconnected` once the connection is closed.
    public func send(_ call: MethodCall) throws(BusError) {
        do { try Marshalling.check(call.arguments) } catch { throw .invalidArgs(error.reason) }
        let core = core
        guard loop.execute({ core.send(.methodCall(call, expectsReply: false)) }) else { throw Self.closed }
    }

    /// Emits a signal. Throws `InvalidArgs` for arguments D-Bus cannot carry, and `Disconnected`
    /// once the connection is closed.
    public func emit(_ signal: SignalEmission) throws(BusError) {
        do { try Marshalling.check(signal.arguments) } catch { throw .invalidArgs(error.reason) }
        let core = core
        // On the connection's own thread it goes out now, like a method's immediate answer.
        if loop.isCurrent {
            guard core.send(.signal(signal)) != nil else {
                throw BusError(.failed, "libdbus did not take the signal \(signal.member) (a body it refused, memory, or a closed connection)")
            }
            return
        }
        guard loop.execute({ core.send(.signal(signal)) }) else { throw Self.closed }
    }

    private static let closed = BusError(.disconnected, "the connection is closed")

    // MARK: Signals

    /// Subscribes to the signals `rule` matches; `handler` runs on the connection's thread for
    /// each. Returns once the bus has added the rule, so nothing sent after this returns is missed.
    /// Releasing or cancelling the token removes the rule and the handler.
    public func addMatch(_ rule: MatchRule, handler: @escaping @Sendable (BusMessage) -> Void) async throws(BusError) -> MatchToken {
        try await addMatch(rule, handler: handler, ended: {})
    }

    /// Subscribes as ``addMatch(_:handler:)``; `ended` runs once on the connection's thread when
    /// the match can deliver no more: its token cancelled or released, the connection closed
    /// (``close()``, or the last reference to it gone), or the bus lost. A sequence built on the
    /// match finishes there.
    public func addMatch(
        _ rule: MatchRule, handler: @escaping @Sendable (BusMessage) -> Void, ended: @escaping @Sendable () -> Void
    ) async throws(BusError) -> MatchToken {
        let core = core
        let id = await withCheckedContinuation { continuation in
            let submitted = loop.execute { continuation.resume(returning: core.addHandler(rule, handler, ended: ended)) }
            if !submitted { continuation.resume(returning: 0) }
        }
        guard id != 0 else {
            ended()
            throw BusError(.disconnected, "the connection is closed")
        }
        let token = MatchToken(connection: self, id: id, rule: rule)
        _ = try await callBus("AddMatch", [.string(rule.description)])
        return token
    }

    func removeMatch(id: UInt64, rule: MatchRule) {
        let core = core
        loop.execute {
            core.removeHandler(id)
            // The bus reference-counts identical rules, so one RemoveMatch per AddMatch is right.
            core.send(.methodCall(
                MethodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: .bus,
                           member: "RemoveMatch", arguments: [.string(rule.description)]),
                expectsReply: false))
        }
    }

    /// Reads messages only while `condition` holds: while it answers `false`, what peers send
    /// waits in the socket and then in the bus daemon, which bounds what they can make this
    /// process hold. It is asked on the connection's thread before each sleep, and every
    /// `interval` while it answers `false`. Pausing delays replies to calls already sent too.
    public func readOnlyWhile(_ condition: @escaping @Sendable () -> Bool, recheckEvery interval: Duration = .milliseconds(5)) {
        let core = core
        loop.execute { core.readOnlyWhile(condition, recheckEvery: interval) }
    }

    // MARK: Objects

    /// Promises an object at `path`: method calls for it wait until it is exported, instead of
    /// failing with `UnknownObject`. A service can then own its name first and get ready after:
    /// a call that comes with the name, as a bus-activated one does, is answered once the object
    /// is there. At most ``heldCallLimit`` calls wait; later ones get `LimitsExceeded`. Calls still
    /// waiting when the connection closes are answered by the bus (the recipient disconnected).
    /// `interfaces`, those the object will serve, tell the limits of each method's calls (see
    /// ``ExportedMethod/limits``); a call of any other is read within ``ArgumentLimits/standard``.
    public func holdCalls(for path: ObjectPath, interfaces: [ExportedInterface] = []) {
        let core = core
        loop.execute { core.objects.hold(callsFor: path, interfaces: interfaces) }
    }

    /// How many calls ``holdCalls(for:)`` keeps for one path.
    public static var heldCallLimit: Int { ObjectTable.heldCallLimit }

    /// Serves `object` at its path, replacing what was there, and answers the calls held for it.
    public func export(_ object: ExportedObject) {
        let core = core
        loop.execute { core.export(object) }
    }

    public func unexport(_ path: ObjectPath) {
        let core = core
        loop.execute { core.objects.unexport(path) }
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for `names`, reading their current
    /// values from the exported object's getters (invalidating those declared `.invalidates`).
    public func emitPropertiesChanged(path: ObjectPath, interface: InterfaceName, names: [MemberName]) {
        let core = core
        loop.execute { core.emitPropertiesChanged(path: path, interface: interface, names: names) }
    }

    func reply(to address: ReplyAddress, with outgoing: Outgoing) {
        let core = core
        loop.execute { core.send(outgoing) }
    }
}

/// Keeps a signal subscription alive: releasing it, or ``cancel()``, removes the match rule
/// from the bus and the handler from the connection.
public final class MatchToken: Sendable {
    private let connection: BusConnection
    private let id: UInt64
    private let rule: MatchRule
    private let cancelled = Atomic<Bool>(false)

    init(connection: BusConnection, id: UInt64, rule: MatchRule) {
        self.connection = connection
        self.id = id
        self.rule = rule
    }

    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        connection.removeMatch(id: id, rule: rule)
    }

    deinit { cancel() }
}

/// Runs a libdbus call that reports failure through a `DBusError*`, freeing that error and
/// throwing it as a ``BusError``.
func withBusError<T>(_ body: (UnsafeMutablePointer<DBusError>) -> T?) throws(BusError) -> T {
    var error = DBusError()
    dbus_error_init(&error)
    if let result = body(&error) {
        dbus_error_free(&error)
        return result
    }
    throw BusError(consuming: &error)
}

extension BusError {
    /// Takes the name and message out of a set `DBusError` and frees it.
    init(consuming error: inout DBusError) {
        let name = error.name.map { String(cString: $0) } ?? ErrorName.failed.rawValue
        let message = error.message.map { String(cString: $0) } ?? ""
        dbus_error_free(&error)
        self.init((try? ErrorName(name)) ?? .failed, message)
    }
}
