import Foundation
import SwiftDBus
import TestSupport
import Testing

/// What can and cannot be put into a message: values D-Bus cannot carry are refused with
/// `InvalidArgs` before anything is sent (never a crash, never a half-built message), and the
/// largest legal values — deep variants, long strings, long arrays — arrive whole. (Text is never
/// refused: see `WireTextTests`.)
@Suite struct MarshallingTests {
    static let signalInterface: InterfaceName = "org.mediabroker.Test.Marshalling"

    /// `value` wrapped `depth` times by `wrap`.
    static func nested(_ depth: Int, in value: DBusValue = .int32(7), _ wrap: (DBusValue) -> DBusValue) -> DBusValue {
        (0..<depth).reduce(value) { inner, _ in wrap(inner) }
    }

    /// `depth` variants around a string.
    static func variants(_ depth: Int) -> DBusValue { nested(depth, in: .string("deep")) { .variant($0) } }
    /// `depth` arrays around an int32 (`aa…ai`), one element at each level.
    static func arrays(_ depth: Int) -> DBusValue { nested(depth) { .array(element: $0.signature, [$0]) } }
    /// `depth` structs around an int32.
    static func structs(_ depth: Int) -> DBusValue { nested(depth) { .structure([$0]) } }

    static let unsendable: [(String, DBusValue)] = [
        ("an array of mixed element types", .array(element: .string, [.string("a"), .int32(1)])),
        ("an array of variants holding a bare value", .array(element: .variant, [.variant(.int32(1)), .int32(2)])),
        ("an array of a{sv} holding an a{ss}", .array(element: .vardict, [.vardict([:]), .dictionary(key: .string, value: .string, [])])),
        ("an array of a{sv} holding an as", .array(element: .vardict, [.strings(["a{sv}"])])),
        ("an array of as holding an ai", .array(element: "as", [.strings([]), .array(element: .int32, [])])),
        ("an array of aas holding an as", .array(element: "aas", [.strings([])])),
        ("an array whose element signature is two types", .array(element: "ss", [])),
        ("a dictionary with a struct key", .dictionary(key: "(i)", value: .string, [])),
        ("a dictionary with an array key", .dictionary(key: "as", value: .string, [])),
        ("a dictionary with a variant key", .dictionary(key: .variant, value: .string, [])),
        ("a dictionary entry of the wrong types", .dictionary(key: .string, value: .variant, [.init(key: .string("k"), value: .string("bare"))])),
        ("an empty struct", .structure([])),
        ("an empty struct inside a variant", .variant(.structure([]))),
        ("an empty struct inside a struct", .structure([.int32(1), .structure([])])),
        ("65 nested variants", variants(65)),
        ("a vardict in 62 variants", nested(62, in: .vardict(["k": .string("v")])) { .variant($0) }),
        ("33 nested arrays", arrays(33)),
        ("33 nested arrays inside a variant", .variant(arrays(33))),
        ("33 nested structs inside a variant", .variant(structs(33))),
        ("33 nested arrays inside an array of variants", .array(element: .variant, [.variant(arrays(33))])),
    ]

    @Test("values D-Bus cannot carry are refused by call, emit and send", arguments: unsendable.indices)
    func refused(_ index: Int) async throws {
        let (what, value) = Self.unsendable[index]
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)

        let callError = await callError(pair.client, pair.call(member: "Echo", [value]))
        #expect(callError?.name == .invalidArgs, "call with \(what): \(String(describing: callError))")
        #expect(throws: BusError.self, "emit with \(what)") {
            try pair.client.emit(SignalEmission(path: "/x", interface: Self.signalInterface, member: "Bad", arguments: [value]))
        }
        #expect(throws: BusError.self, "send with \(what)") { try pair.client.send(pair.call(member: "Echo", [value])) }
        // The connection is unharmed: the bus did not drop it for a malformed message.
        #expect(try await pair.client.call(pair.call(member: "Add", [.int32(1), .int32(2)])).arguments == [.int32(3)])
    }

    /// Each is the whole `v` argument of a call and its reply: 64 containers deep at most.
    @Test("the deepest values D-Bus allows arrive unchanged", arguments: [
        ("64 nested variants", variants(64)),
        ("32 nested arrays in a variant", .variant(arrays(32))),
        ("32 nested structs in a variant", .variant(structs(32))),
        ("an array of 31 structs of 31 arrays in a variant", .variant(nested(1, in: nested(31, in: arrays(31)) { .structure([$0]) }) {
            .array(element: $0.signature, [$0])
        })),
        ("a vardict in 61 variants", nested(61, in: .vardict(["k": .string("v")])) { .variant($0) }),
    ])
    func deepest(_ what: String, _ argument: DBusValue) async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let reply = try await pair.client.call(pair.call(member: "Echo", [argument]))
        #expect(reply.arguments == [argument], "\(what)")
    }

    @Test func tooManyArgumentsForOneSignatureAreRefused() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let arguments = Array(repeating: DBusValue.byte(1), count: 256)
        #expect(throws: BusError.self) {
            try pair.client.emit(SignalEmission(path: "/x", interface: Self.signalInterface, member: "Many", arguments: arguments))
        }
    }

    @Test func aOneMegabyteStringMakesTheRoundTrip() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let text = String((0..<(1 << 20)).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        let reply = try await pair.client.call(pair.call(member: "Echo", [.variant(.string(text))]))
        #expect(try reply.arguments.first?.string().utf8.count == 1 << 20)
        #expect(try reply.arguments.first?.string() == text)
    }

    @Test func tenThousandStringsMakeTheRoundTrip() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let strings = (0..<10_000).map { "artist \($0)" }
        let reply = try await pair.client.call(pair.call(member: "Echo", [.variant(.strings(strings))]))
        #expect(try reply.arguments.first?.strings() == strings)
    }

    @Test func aGetterReturningAnUnsendableOrUndeclaredValueAnswersFailedRatherThanCrashing() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(ExportedObject(path: TestObject.path, interfaces: [
            ExportedInterface(name: TestObject.interface, properties: [
                ExportedProperty("Mixed", signature: "as") { .array(element: .string, [.string("a"), .int32(1)]) },
                ExportedProperty("Deep", signature: .variant) { .variant(Self.arrays(33)) },
                ExportedProperty("Undeclared", signature: .string) { .int32(1) },
                ExportedProperty("Fine", signature: .string) { .string("fine") },
            ]),
        ]))
        for name in ["Mixed", "Deep", "Undeclared"] {
            let error = await callError(pair.client, pair.call(TestObject.path, .properties, "Get", [.string(TestObject.interface.rawValue), .string(name)]))
            #expect(error?.name == .failed, "\(name): \(String(describing: error))")
        }
        let all = await callError(pair.client, pair.call(TestObject.path, .properties, "GetAll", [.string(TestObject.interface.rawValue)]))
        #expect(all?.name == .failed)
        // Nothing unsendable is announced; the rest still is.
        let received = Mailbox<BusMessage>()
        let token = try await pair.client.addMatch(MatchRule(interface: .properties, member: "PropertiesChanged")) { received.put($0) }
        defer { token.cancel() }
        pair.service.emitPropertiesChanged(path: TestObject.path, interface: TestObject.interface, names: ["Mixed", "Deep", "Undeclared", "Fine"])
        #expect(try await received.take().arguments[1].vardict() == ["Fine": .string("fine")])
        #expect(try await pair.getProperty("Fine") == .string("fine"))
    }
}
