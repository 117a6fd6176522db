import SwiftDBus
import TestSupport
@testable import MediaBroker
@testable import BrokerCore

/// What the broker's runtime parts are built on in their tests: a private bus, the broker's
/// connection to it and a client's, and a store in memory. A part's handlers are served on a test
/// object of their own (``serve(_:)``), so the client calls them as an app would.
final class BrokerPartsRig: Sendable {
    static let path: ObjectPath = "/org/mediabroker/Test/Parts"
    static let interface: InterfaceName = "org.mediabroker.Test.Parts"

    let bus: PrivateBus
    let connection: BusConnection
    let client: BusConnection
    let store: HistoryStore
    let log = Log(threshold: .error, environment: [:])
    /// The client's subscriptions, held for the rig's life.
    private let matches = Locked<[MatchToken]>([])

    init() throws {
        bus = try PrivateBus.start()
        connection = try BusConnection.connect(to: bus.address)
        client = try BusConnection.connect(to: bus.address)
        store = try HistoryStore.inMemory(commitWindow: .zero)
    }

    func close() {
        client.close()
        connection.close()
        store.close()
    }

    /// Runs `body` on the broker's connection thread, where the parts live, and returns its value.
    func onBusThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { done in
            if !connection.loop.execute({ done.resume(returning: body()) }) { preconditionFailure("the rig's connection is closed") }
        }
    }

    /// Serves `methods` on the test object, each taking what the caller sends; with a `gate`, each
    /// call is admitted by it first, as the broker's object admits its calls.
    func serve(_ methods: [ExportedMethod], gate: ReaderGate? = nil) async {
        let interfaces = [ExportedInterface(name: Self.interface, methods: methods)]
        let object = if let gate {
            ExportedObject(path: Self.path, interfaces: interfaces) { call, done in gate.admit(call, done: done) }
        } else {
            ExportedObject(path: Self.path, interfaces: interfaces)
        }
        await onBusThread { [connection] in connection.export(object) }
    }

    /// A reader gate over `settings`, as the broker builds it: the rig's client reads as the host
    /// (it is this process, the person's own).
    func gate(_ settings: CurrentSettings) -> ReaderGate {
        let keeper = SettingsKeeper(connection: connection, store: store, settings: settings, observers: [],
                                    appOfPlayer: { _ in nil }, log: log)
        let resolver = AppResolver(environment: [:])
        let questions = AccessNotifications(notifications: DesktopNotifications(connection: connection, log: log), settings: settings,
                                            keeper: keeper, resolver: resolver, log: log)
        return ReaderGate(connection: connection, settings: settings, keeper: keeper, arrivals: ConnectionArrivals(),
                          questions: questions, resolver: resolver, log: log)
    }

    /// Calls `member` of the test object from the client.
    func call(_ member: MemberName, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        let destination = try BusName(connection.uniqueName)
        let call = MethodCall(destination: destination, path: Self.path, interface: Self.interface, member: member, arguments: arguments)
        return try await client.call(call, timeout: .seconds(20)).arguments
    }

    /// Every signal `member` of the broker's interface that reaches the client from now on.
    func signals(_ member: MemberName) async throws -> Mailbox<[DBusValue]> {
        let arrived = Mailbox<[DBusValue]>()
        let token = try await client.addMatch(MatchRule(interface: BrokerContract.interface, member: member, path: BrokerContract.objectPath)) {
            arrived.put($0.arguments)
        }
        matches.withLock { $0.append(token) }
        return arrived
    }
}

/// The error `call` from `connection` ends with, or `nil` when it succeeds.
func refusal(of call: MethodCall, from connection: BusConnection) async -> BusError? {
    do {
        _ = try await connection.call(call, timeout: .seconds(20))
        return nil
    } catch {
        return error
    }
}
