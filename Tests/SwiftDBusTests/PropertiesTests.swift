import SwiftDBus
import TestSupport
import Testing

/// `org.freedesktop.DBus.Properties` on an exported object: `Get`, `GetAll` and `Set` answer from
/// the declaration with the standard errors, and `PropertiesChanged` announces each property as
/// its declaration says.
@Suite struct PropertiesTests {
    static let player = TestObject.interface.rawValue

    @Test func getAnswersTheGettersValueInAVariant() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let reply = try await pair.client.call(pair.call(TestObject.path, .properties, "Get", [.string(Self.player), .string("Title")]))
        #expect(reply.signature == "v")
        #expect(reply.arguments == [.variant(.string("Blue Train"))])
    }

    @Test func getAllAnswersEveryReadablePropertyOfTheInterface() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let reply = try await pair.client.call(pair.call(TestObject.path, .properties, "GetAll", [.string(Self.player)]))
        #expect(reply.signature == "a{sv}")
        #expect(try reply.arguments[0].vardict() == [
            "Title": .string("Blue Train"), "Volume": .int32(5), "Position": .int64(0), "Secret": .string("hidden"),
        ])
        let other = try await pair.client.call(pair.call(TestObject.path, .properties, "GetAll", [.string(TestObject.otherInterface.rawValue)]))
        #expect(try other.arguments[0].vardict().isEmpty)
    }

    @Test func setChangesAWritablePropertyThroughItsSetter() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let object = TestObject()
        pair.service.export(object.object)
        let reply = try await pair.client.call(pair.call(TestObject.path, .properties, "Set", [.string(Self.player), .string("Volume"), .variant(.int32(9))]))
        #expect(reply.arguments.isEmpty)
        #expect(object.volume.withLock { $0 } == 9)
        #expect(try await pair.getProperty("Volume") == .int32(9))
    }

    @Test("unknown interfaces and properties, read-only properties and wrong types get the standard errors", arguments: [
        ("Get", [DBusValue.string("org.mediabroker.Test.Nothing"), .string("Title")], ErrorName.unknownInterface),
        ("GetAll", [.string("org.mediabroker.Test.Nothing")], .unknownInterface),
        ("Set", [.string("org.mediabroker.Test.Nothing"), .string("Title"), .variant(.string("x"))], .unknownInterface),
        ("Get", [.string(player), .string("Nothing")], .unknownProperty),
        ("Set", [.string(player), .string("Nothing"), .variant(.string("x"))], .unknownProperty),
        ("Set", [.string(player), .string("Title"), .variant(.string("x"))], .propertyReadOnly),
        ("Set", [.string(player), .string("Volume"), .variant(.string("loud"))], .invalidArgs),
        ("Set", [.string(player), .string("Volume"), .variant(.uint32(3))], .invalidArgs),
        ("Get", [.string(player)], .invalidArgs),
        ("GetAll", [.int32(1)], .invalidArgs),
        ("Set", [.string(player), .string("Volume"), .int32(3)], .invalidArgs),
        ("Frobnicate", [], .unknownMethod),
    ])
    func errors(_ member: String, _ arguments: [DBusValue], _ expected: ErrorName) async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let object = TestObject()
        pair.service.export(object.object)
        let error = await callError(pair.client, pair.call(TestObject.path, .properties, try MemberName(member), arguments))
        #expect(error?.name == expected, "\(error.map(String.init(describing:)) ?? "no error")")
        #expect(object.volume.withLock { $0 } == 5, "a refused Set changes nothing")
    }

    @Test func aSetterThrowingItsOwnErrorAnswersWithThatErrorsName() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let error = await callError(pair.client, pair.call(TestObject.path, .properties, "Set", [.string(Self.player), .string("Volume"), .variant(.int32(-1))]))
        #expect(error == BusError(TestObject.outOfRange, "volume below zero"))
    }

    @Test func propertiesOfAnUnknownObjectAreAnUnknownObject() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let error = await callError(pair.client, pair.call("/org/mediabroker/Nothing", .properties, "GetAll", [.string(Self.player)]))
        #expect(error?.name == .unknownObject)
    }

    @Test func propertiesChangedCarriesValuesOfEmittingPropertiesAndNamesOfInvalidatingOnes() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let object = TestObject()
        pair.service.export(object.object)
        let received = Mailbox<BusMessage>()
        let token = try await pair.client.addMatch(MatchRule(interface: .properties, member: "PropertiesChanged", path: TestObject.path)) {
            received.put($0)
        }
        defer { token.cancel() }

        object.title.withLock { $0 = "Giant Steps" }
        object.volume.withLock { $0 = 11 }
        pair.service.emitPropertiesChanged(path: TestObject.path, interface: TestObject.interface, names: ["Title", "Position", "Secret", "Volume"])
        let signal = try await received.take()
        #expect(signal.sender == pair.service.uniqueName)
        #expect(signal.signature == "sa{sv}as")
        #expect(signal.arguments.count == 3)
        #expect(try signal.arguments[0].string() == Self.player)
        #expect(try signal.arguments[1].vardict() == ["Title": .string("Giant Steps"), "Volume": .int32(11)])
        #expect(try signal.arguments[2].strings() == ["Position"])
    }

    @Test func propertiesThatAreNeverAnnouncedEmitNothing() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let received = Mailbox<BusMessage>()
        let token = try await pair.client.addMatch(MatchRule(interface: .properties, member: "PropertiesChanged")) { received.put($0) }
        defer { token.cancel() }

        pair.service.emitPropertiesChanged(path: TestObject.path, interface: TestObject.interface, names: ["Secret"])
        pair.service.emitPropertiesChanged(path: TestObject.path, interface: TestObject.interface, names: ["Nothing"])
        pair.service.emitPropertiesChanged(path: "/org/mediabroker/Nothing", interface: TestObject.interface, names: ["Title"])
        // Signals from one sender arrive in order: once this one is here, the ones before would be too.
        pair.service.emitPropertiesChanged(path: TestObject.path, interface: TestObject.interface, names: ["Position"])
        let first = try await received.take()
        #expect(try first.arguments[1].vardict().isEmpty)
        #expect(try first.arguments[2].strings() == ["Position"])
        #expect(received.count == 0)
    }
}
