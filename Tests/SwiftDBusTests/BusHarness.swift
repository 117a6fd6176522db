import Foundation
import SwiftDBus
import TestSupport
import Testing

/// A private bus with two connections on it: one serves objects, the other calls them.
/// Call ``close()`` (in a `defer`) when done.
struct BusPair {
    let bus: PrivateBus
    let service: BusConnection
    let client: BusConnection

    static func start() throws -> BusPair {
        let bus = try PrivateBus.start()
        return BusPair(bus: bus, service: try BusConnection.connect(to: bus.address), client: try BusConnection.connect(to: bus.address))
    }

    var serviceName: BusName { BusName(uncheckedUnique: service.uniqueName) }

    /// A call from the client to the service.
    func call(_ path: ObjectPath, _ interface: InterfaceName?, _ member: MemberName, _ arguments: [DBusValue] = []) -> MethodCall {
        MethodCall(destination: serviceName, path: path, interface: interface, member: member, arguments: arguments)
    }

    /// A call from the client to a method of the test object's main interface.
    func call(member: MemberName, _ arguments: [DBusValue] = []) -> MethodCall {
        call(TestObject.path, TestObject.interface, member, arguments)
    }

    /// `Properties.Get` on the test object, answering the value inside the variant.
    func getProperty(_ name: String, of interface: String = TestObject.interface.rawValue) async throws(BusError) -> DBusValue {
        let reply = try await client.call(call(TestObject.path, .properties, "Get", [.string(interface), .string(name)]))
        return reply.arguments.first?.unwrapped ?? .string("no reply value")
    }

    func close() {
        client.close()
        service.close()
    }
}

extension BusName {
    /// A unique name the bus assigned, valid by construction.
    init(uncheckedUnique name: String) {
        do { self = try BusName(name) } catch { preconditionFailure("the bus assigned an invalid name: \(error)") }
    }
}

/// The error a call ends with, or `nil` when it succeeds.
func callError(_ connection: BusConnection, _ call: MethodCall, timeout: Duration = .seconds(20)) async -> BusError? {
    do {
        _ = try await connection.call(call, timeout: timeout)
        return nil
    } catch {
        return error
    }
}

/// The object most bus tests serve: one interface with methods of every answering style,
/// properties of every access and change-signal kind, and a signal.
final class TestObject: Sendable {
    /// An argument's annotation, with characters XML must escape.
    static let tagsNote = Annotation("org.example.Note", "a <list> & \"quotes\"")

    static let path: ObjectPath = "/org/mediabroker/Test/Player"
    static let interface: InterfaceName = "org.mediabroker.Test.Player"
    static let otherInterface: InterfaceName = "org.mediabroker.Test.Other"
    static let outOfRange: ErrorName = "org.mediabroker.Test.Error.OutOfRange"

    let title = Locked("Blue Train")
    let volume = Locked<Int32>(5)
    let position = Locked<Int64>(0)
    /// Calls of `Hold`, kept unanswered until the test decides.
    let held = Mailbox<MethodInvocation>()
    /// Arguments of every `Note` call, in order.
    let notes = Mailbox<String>()

    var object: ExportedObject {
        ExportedObject(path: Self.path, interfaces: [
            ExportedInterface(
                name: Self.interface,
                methods: [
                    ExportedMethod("Add", inputs: [Argument("a", .int32), Argument("b", .int32)], outputs: [Argument("sum", .int32)]) { call in
                        guard let a = try? call.arguments[0].integer(as: Int32.self), let b = try? call.arguments[1].integer(as: Int32.self) else {
                            return call.fail(.invalidArgs("not numbers"))
                        }
                        call.reply([.int32(a &+ b)])
                    },
                    ExportedMethod("Describe", inputs: [Argument("name", .string), Argument("tags", "as", annotations: [Self.tagsNote])],
                                   outputs: [Argument("text", .string), Argument("count", .uint32)]) { call in
                        let name = (try? call.arguments[0].string()) ?? ""
                        let tags = (try? call.arguments[1].strings()) ?? []
                        call.reply([.string("\(name): \(tags.joined(separator: ","))"), .uint32(UInt32(tags.count))])
                    }.annotated(Annotation("org.freedesktop.DBus.Deprecated", "true")),
                    // Takes anything D-Bus carries: the marshalling tests send its largest values.
                    ExportedMethod("Echo", inputs: [Argument("value", .variant)], outputs: [Argument("value", .variant)], limits: .dbus) { call in
                        call.reply(call.arguments)
                    },
                    ExportedMethod("Hold", outputs: [Argument("answer", .string)]) { [held] call in held.put(call) },
                    ExportedMethod("Forget", outputs: [Argument("answer", .string)]) { _ in },
                    ExportedMethod("ReplyWrongly", outputs: [Argument("answer", .string)]) { call in call.reply([.int32(1)]) },
                    ExportedMethod("ReplyWithNUL", outputs: [Argument("answer", .string)]) { call in call.reply([.string("a\u{0}b")]) },
                    ExportedMethod("ReplyTooDeep", outputs: [Argument("answer", .variant)]) { call in
                        call.reply([.variant(MarshallingTests.arrays(33))])
                    },
                    ExportedMethod("Fail") { call in call.fail(BusError("org.mediabroker.Test.Error.Custom", "it went wrong: ünïcode")) },
                    ExportedMethod("FailWithNUL") { call in call.fail(BusError("org.mediabroker.Test.Error.Custom", "a\u{0}b")) },
                    ExportedMethod("Note", inputs: [Argument("text", .string)]) { [notes] call in
                        notes.put((try? call.arguments[0].string()) ?? "")
                        call.reply()
                    },
                ],
                properties: [
                    ExportedProperty("Title", signature: .string) { [self] in .string(self.title.withLock { $0 }) },
                    ExportedProperty("Volume", signature: .int32, get: { [self] in .int32(self.volume.withLock { $0 }) }, set: { [self] value throws(BusError) in
                        guard case .int32(let level) = value, level >= 0 else { throw BusError(TestObject.outOfRange, "volume below zero") }
                        self.volume.withLock { $0 = level }
                    }),
                    ExportedProperty("Position", signature: .int64, changeSignal: .invalidates) { [self] in .int64(self.position.withLock { $0 }) },
                    ExportedProperty("Secret", signature: .string, changeSignal: .none) { .string("hidden") },
                ],
                signals: [ExportedSignal("Changed", arguments: [Argument("what", .string), Argument("count", .uint32)])]),
            ExportedInterface(name: Self.otherInterface, methods: [
                ExportedMethod("Hello", outputs: [Argument("greeting", .string)]) { call in call.reply([.string("hello")]) },
            ]),
        ])
    }
}
