internal import CDBus
@testable import SwiftDBus
import TestSupport
import Testing

/// One rule for text D-Bus cannot carry (`WireText`), the same in the writer and the reader: each
/// NUL, and each ill-formed UTF-8 sequence, becomes U+FFFD. Nothing is refused or cut short for its
/// text, whichever way a string is sent — call, reply, error, signal, page.
@Suite struct WireTextTests {
    static let interface: InterfaceName = "org.mediabroker.Test.Text"

    @Test("the writer sends each NUL of a string as U+FFFD, in values, keys and written pages alike")
    func writerReplacesNUL() throws {
        let body = try MessageBody([.string("a\u{0}b\u{0}"), .vardict(["k\u{0}": .string("\u{0}")])])
        #expect(body.bytes.prefix(12) == [8, 0, 0, 0, 0x61, 0xEF, 0xBF, 0xBD, 0x62, 0xEF, 0xBF, 0xBD])
        #expect(try body.values() == [.string("a\u{FFFD}b\u{FFFD}"), .vardict(["k\u{FFFD}": .string("\u{FFFD}")])])
        // The same string written by a page that writes itself gives the same bytes.
        struct One: MessageArguments {
            var signature: Signature { .vardict }
            func write(to writer: inout ArgumentWriter) { writer.appendVardict { $0.add("k", "a\u{0}b") } }
        }
        let message = try #require(WireMessage.make(WireMessage.Header(kind: .methodReturn, replySerial: 1), arguments: One()))
        defer { dbus_message_unref(message) }
        #expect(try MessageBody(of: message, signature: .vardict).bytes == MessageBody([.vardict(["k": .string("a\u{0}b")])]).bytes)
    }

    /// `s` holding the given bytes, then an `a{sv}` whose one key is them (written by hand: libdbus
    /// would refuse both).
    static func hand(_ text: [UInt8]) -> MessageBody {
        let string: [UInt8] = [UInt8(text.count), 0, 0, 0] + text + [0]
        var bytes = string
        func pad(_ boundary: Int) { while bytes.count % boundary != 0 { bytes.append(0) } }
        let entries = string + [1, UInt8(ascii: "y"), 0, 7]
        pad(4)
        bytes += [UInt8(entries.count), 0, 0, 0]
        pad(8)
        bytes += entries
        return MessageBody(signature: Signature(validated: "sa{sv}"), bytes: bytes, isBigEndian: false)
    }

    @Test("the reader reads each NUL and each ill-formed UTF-8 sequence as U+FFFD, in values and keys", arguments: [
        ([0x61, 0, 0x62] as [UInt8], "a\u{FFFD}b"),
        ([0xC3, 0x28], "\u{FFFD}("),
        ([0xFF, 0x61, 0xE2, 0x82], "\u{FFFD}a\u{FFFD}"),
        ([0xC3, 0xA9, 0], "é\u{FFFD}"),
    ])
    func readerReplaces(_ text: [UInt8], _ expected: String) throws {
        let body = Self.hand(text)
        var keys: [String] = []
        var first: DBusValue?
        try body.read { reader throws(MarshallingError) in
            first = try reader.value()
            _ = try reader.entries { key, _ throws(MarshallingError) in keys.append(key.string) }
        }
        #expect(first == .string(expected))
        #expect(keys == [expected])
        #expect(try body.values() == [.string(expected), .dictionary(key: .string, value: .variant, [
            .init(key: .string(expected), value: .variant(.byte(7))),
        ])])
    }

    @Test("a string holding NUL arrives with U+FFFD in its place: in a call, its reply, an error and a signal")
    func throughTheBus() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)

        let echoed = try await pair.client.call(pair.call(member: "Echo", [.variant(.strings(["a\u{0}b", "\u{0}"]))]))
        #expect(echoed.arguments == [.variant(.strings(["a\u{FFFD}b", "\u{FFFD}"]))])
        #expect(try await pair.client.call(pair.call(member: "ReplyWithNUL")).arguments == [.string("a\u{FFFD}b")])
        let error = await callError(pair.client, pair.call(member: "FailWithNUL"))
        #expect(error?.name.rawValue == "org.mediabroker.Test.Error.Custom")
        #expect(error?.message == "a\u{FFFD}b")

        let received = Mailbox<BusMessage>()
        let token = try await pair.client.addMatch(MatchRule(interface: Self.interface, member: "Text")) { received.put($0) }
        defer { token.cancel() }
        try pair.service.emit(SignalEmission(path: "/text", interface: Self.interface, member: "Text", arguments: [
            .dictionary(key: .string, value: .string, [.init(key: .string("k\u{0}"), value: .string("v\u{0}"))]),
        ]))
        #expect(try await received.take().arguments == [
            .dictionary(key: .string, value: .string, [.init(key: .string("k\u{FFFD}"), value: .string("v\u{FFFD}"))]),
        ])
    }
}
