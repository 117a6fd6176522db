import Foundation
import SwiftDBus
import TestSupport
import Testing

/// Method calls to exported objects: declared methods run their handlers with checked arguments;
/// unknown objects, interfaces, methods and wrong signatures get the standard errors; `Peer`
/// answers on every path.
@Suite struct MethodDispatchTests {
    @Test func aDeclaredMethodAnswersWithItsOutputs() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let sum = try await pair.client.call(pair.call(member: "Add", [.int32(40), .int32(2)]))
        #expect(sum.arguments == [.int32(42)])
        #expect(sum.kind == .methodReturn)
        #expect(sum.sender == pair.service.uniqueName)
        let described = try await pair.client.call(pair.call(member: "Describe", [.string("mpv"), .strings(["a", "b"])]))
        #expect(described.signature == "su")
        #expect(described.arguments == [.string("mpv: a,b"), .uint32(2)])
    }

    @Test func aCallWithoutAnInterfaceFindsTheMethodInAnyInterface() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        #expect(try await pair.client.call(pair.call(TestObject.path, nil, "Add", [.int32(1), .int32(2)])).arguments == [.int32(3)])
        #expect(try await pair.client.call(pair.call(TestObject.path, nil, "Hello")).arguments == [.string("hello")])
        #expect(try await pair.client.call(pair.call(TestObject.path, nil, "Ping")).arguments == [])
    }

    @Test("the standard errors, with their exact names", arguments: [
        (ObjectPath("/org/mediabroker/Nothing"), InterfaceName?.some(TestObject.interface), MemberName("Add"), [DBusValue.int32(1), .int32(2)],
         "org.freedesktop.DBus.Error.UnknownObject"),
        (ObjectPath("/org/mediabroker/Test"), TestObject.interface, "Add", [.int32(1), .int32(2)], "org.freedesktop.DBus.Error.UnknownObject"),
        (TestObject.path, "org.mediabroker.Test.Nothing", "Add", [.int32(1), .int32(2)], "org.freedesktop.DBus.Error.UnknownInterface"),
        (TestObject.path, TestObject.interface, "Subtract", [.int32(1), .int32(2)], "org.freedesktop.DBus.Error.UnknownMethod"),
        (TestObject.path, nil, "Subtract", [], "org.freedesktop.DBus.Error.UnknownMethod"),
        (TestObject.path, TestObject.otherInterface, "Add", [.int32(1), .int32(2)], "org.freedesktop.DBus.Error.UnknownMethod"),
        (TestObject.path, TestObject.interface, "Add", [.int32(1)], "org.freedesktop.DBus.Error.InvalidArgs"),
        (TestObject.path, TestObject.interface, "Add", [.int64(1), .int64(2)], "org.freedesktop.DBus.Error.InvalidArgs"),
        (TestObject.path, TestObject.interface, "Add", [.int32(1), .int32(2), .int32(3)], "org.freedesktop.DBus.Error.InvalidArgs"),
        (TestObject.path, TestObject.interface, "Describe", [.string("x"), .array(element: .variant, [])], "org.freedesktop.DBus.Error.InvalidArgs"),
        (TestObject.path, .peer, "Ping", [.string("x")], "org.freedesktop.DBus.Error.InvalidArgs"),
        (TestObject.path, .peer, "Pong", [], "org.freedesktop.DBus.Error.UnknownMethod"),
        (TestObject.path, .introspectable, "Introspect", [.string("x")], "org.freedesktop.DBus.Error.InvalidArgs"),
        (TestObject.path, .introspectable, "Inspect", [], "org.freedesktop.DBus.Error.UnknownMethod"),
    ] as [(ObjectPath, InterfaceName?, MemberName, [DBusValue], String)])
    func standardErrors(_ path: ObjectPath, _ interface: InterfaceName?, _ member: MemberName, _ arguments: [DBusValue], _ expected: String) async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let object = TestObject()
        pair.service.export(object.object)
        let error = await callError(pair.client, pair.call(path, interface, member, arguments))
        #expect(error?.name.rawValue == expected, "\(error.map(String.init(describing:)) ?? "no error")")
        #expect(error?.message.isEmpty == false, "a standard error says what was wrong")
    }

    @Test func aHandlersOwnErrorArrivesWithItsNameAndMessage() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let error = await callError(pair.client, pair.call(member: "Fail"))
        #expect(error == BusError("org.mediabroker.Test.Error.Custom", "it went wrong: ünïcode"))
    }

    @Test func peerAnswersPingAndTheMachineIDOnAnyPath() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        for path: ObjectPath in [TestObject.path, "/", "/no/object/here"] {
            #expect(try await pair.client.call(pair.call(path, .peer, "Ping")).arguments.isEmpty)
            let id = try await pair.client.call(pair.call(path, .peer, "GetMachineId")).arguments
            let text = try #require(try id.first?.string())
            #expect(text.count == 32 && text.allSatisfy(\.isHexDigit), "\(text)")
            if let onDisk = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8) {
                #expect(text == onDisk.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
    }

    @Test func anUnexportedObjectIsGone() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        #expect(try await pair.client.call(pair.call(member: "Add", [.int32(1), .int32(1)])).arguments == [.int32(2)])
        pair.service.unexport(TestObject.path)
        #expect(await callError(pair.client, pair.call(member: "Add", [.int32(1), .int32(1)]))?.name == .unknownObject)
    }
}
