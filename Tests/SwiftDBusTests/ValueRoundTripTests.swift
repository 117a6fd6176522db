import Foundation
import SwiftDBus
import TestSupport
import Testing

/// Every D-Bus type, nested containers and edge values survive a trip through a real
/// `dbus-daemon`: as a signal's arguments, and inside a variant through a method call.
@Suite struct ValueRoundTripTests {
    static let path: ObjectPath = "/test/Echo"
    static let interface: InterfaceName = "org.mediabroker.Test.Echo"

    static let samples: [DBusValue] = [
        .byte(0), .byte(255),
        .boolean(true), .boolean(false),
        .int16(.min), .int16(.max), .uint16(.max),
        .int32(.min), .int32(.max), .uint32(.max),
        .int64(.min), .int64(.max), .uint64(.max), .uint64(0),
        .double(0), .double(-0.0), .double(.infinity), .double(-.infinity), .double(.greatestFiniteMagnitude),
        .double(.leastNonzeroMagnitude),
        .string(""), .string("naïve café — 日本語 — مرحبا — 🎧🎶"), .string(String(repeating: "long ", count: 200_000)),
        .objectPath("/"), .objectPath("/org/mpris/MediaPlayer2"),
        .signature(""), .signature("a{sv}(ia{s(yv)})"),
        .array(element: .string, []), .array(element: "a{sv}", []),
        .strings(["a", "", "ß"]),
        .array(element: .byte, (0...255).map { .byte(UInt8($0)) }),
        .dictionary(key: .string, value: .variant, []),
        .vardict(["title": .string("Song"), "length": .int64(180_000_000), "artists": .strings(["A", "B"])]),
        .dictionary(key: .int32, value: .string, [.init(key: .int32(-1), value: .string("minus one"))]),
        .dictionary(key: .objectPath, value: .boolean, [.init(key: .objectPath("/a"), value: .boolean(true))]),
        .dictionary(key: .double, value: .uint64, [.init(key: .double(1.5), value: .uint64(7))]),
        .structure([.int32(1), .string("two"), .array(element: .double, [.double(3)])]),
        .structure([.structure([.structure([.byte(1)])])]),
        .variant(.variant(.variant(.string("deep")))),
        .array(element: .variant, [.variant(.int32(1)), .variant(.string("x")), .variant(.vardict([:]))]),
    ]

    @Test("every sample arrives unchanged as a signal argument")
    func signalRoundTrip() async throws {
        let bus = try PrivateBus.start()
        let sender = try BusConnection.connect(to: bus.address)
        let receiver = try BusConnection.connect(to: bus.address)
        defer { sender.close(); receiver.close() }

        let received = Mailbox<[DBusValue]>()
        let token = try await receiver.addMatch(MatchRule(interface: Self.interface, member: "Values")) { message in
            received.put(message.arguments)
        }
        defer { token.cancel() }

        for sample in Self.samples {
            try sender.emit(SignalEmission(path: Self.path, interface: Self.interface, member: "Values", arguments: [sample, sample]))
            let arguments = try await received.take()
            #expect(arguments == [sample, sample], "signature \(sample.signature)")
        }
    }

    @Test("NaN arrives as NaN")
    func notANumber() async throws {
        let bus = try PrivateBus.start()
        let service = try BusConnection.connect(to: bus.address)
        let client = try BusConnection.connect(to: bus.address)
        defer { service.close(); client.close() }
        service.export(Self.echoObject)
        let reply = try await client.call(Self.echo(.variant(.double(.nan)), to: service))
        guard case .variant(.double(let value)) = reply.arguments.first else {
            Issue.record("unexpected reply \(reply.arguments)")
            return
        }
        #expect(value.isNaN)
    }

    @Test("every sample arrives unchanged inside a variant through a method call and its reply")
    func methodRoundTrip() async throws {
        let bus = try PrivateBus.start()
        let service = try BusConnection.connect(to: bus.address)
        let client = try BusConnection.connect(to: bus.address)
        defer { service.close(); client.close() }
        service.export(Self.echoObject)

        for sample in Self.samples {
            let reply = try await client.call(Self.echo(.variant(sample), to: service))
            #expect(reply.arguments == [.variant(sample)], "signature \(sample.signature)")
            #expect(reply.signature == "v")
        }
    }

    static let echoObject = ExportedObject(path: path, interfaces: [
        ExportedInterface(name: interface, methods: [
            // Takes anything D-Bus carries, as the samples do.
            ExportedMethod("Echo", inputs: [Argument("value", .variant)], outputs: [Argument("value", .variant)], limits: .dbus) { call in
                call.reply(call.arguments)
            },
        ]),
    ])

    static func echo(_ value: DBusValue, to service: BusConnection) throws -> MethodCall {
        MethodCall(destination: try BusName(service.uniqueName), path: path, interface: interface, member: "Echo", arguments: [value])
    }
}
