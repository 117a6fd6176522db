internal import CDBus
@testable import SwiftDBus
import Testing

/// A received body's length, counted through libdbus's iterators before the body is read (what
/// lets a call over its method's limits be refused unread): exactly the body's bytes for every
/// type, and, past the bound asked about, a count that stopped at the bound rather than at the end.
@Suite struct BodyLengthTests {
    /// A signal carrying `values`, written by libdbus; the caller unrefs it.
    static func message(_ values: [DBusValue]) throws -> OpaquePointer {
        let message = try #require(dbus_message_new_signal("/test", "org.mediabroker.Test", "Values"))
        try #require(LibdbusReference.append(values, to: message))
        return message
    }

    @Test("the length counted is the body's exact length, whatever the types and their padding",
          arguments: MessageBodyTests.everyType + [[], [.byte(1), .strings(["a", "bb"]), .int16(3), .vardict(["k": .int64(4)]), .byte(5)]])
    func lengthIsExact(_ values: [DBusValue]) throws {
        let message = try Self.message(values)
        defer { dbus_message_unref(message) }
        let body = try MessageBody(of: message, signature: Signature.sequence(values.map(\.signature)))
        #expect(BodyLength.of(message, upTo: .max) == body.bytes.count, "\(values.map(\.signature))")
        #expect(BodyLength.of(message, upTo: body.bytes.count) == body.bytes.count, "exact at the bound too")
    }

    @Test("a string longer than the bound is counted only a little past it")
    func countingStopsPastTheBound() throws {
        let message = try Self.message([.string(String(repeating: "s", count: 1 << 20)), .int32(1)])
        defer { dbus_message_unref(message) }
        let counted = BodyLength.of(message, upTo: 100)
        #expect(counted > 100 && counted < 200, "\(counted)")
    }

    @Test("an array of 50,000 elements is counted from its length field, as large as it is")
    func arraysAreCountedWhole() throws {
        let message = try Self.message([.vardict(["artists": .strings(Array(repeating: "a", count: 50_000))])])
        defer { dbus_message_unref(message) }
        let body = try MessageBody(of: message, signature: .vardict)
        #expect(BodyLength.of(message, upTo: 1000) == body.bytes.count)
    }
}
