import CDBus
@testable import SwiftDBus
import Testing

/// Every message is written by SwiftDBus's one writer and handed to libdbus whole (`WireMessage`):
/// a body must be byte for byte what libdbus's own iterators write for the same values — padding,
/// lengths and all, for every type — and each kind of message must carry the header libdbus
/// would have given it, with no serial of its own.
@Suite struct WireMessageTests {
    struct Entry {
        enum Value { case text(String), number(Int64), list([String]) }
        var key: String
        var value: Value

        /// The same entry as libdbus would be given it (NULs replaced as the writer replaces them).
        var dbusValue: DBusValue.DictionaryEntry {
            func clean(_ text: String) -> String { text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") }
            let inner: DBusValue = switch value {
            case .text(let text): .string(clean(text))
            case .number(let number): .int64(number)
            case .list(let items): .strings(items.map(clean))
            }
            return .init(key: .string(key), value: .variant(inner))
        }
    }

    struct Page: MessageArguments {
        var dictionaries: [[Entry]]
        var signature: Signature { "aa{sv}" }
        func write(to writer: inout ArgumentWriter) {
            writer.appendVardicts(dictionaries) { entries, fields in
                for entry in entries {
                    switch entry.value {
                    case .text(let text): fields.add(entry.key, text)
                    case .number(let number): fields.add(entry.key, number)
                    case .list(let items): fields.add(entry.key, items)
                    }
                }
            }
        }

        var values: [DBusValue] {
            [.array(element: .vardict, dictionaries.map { .dictionary(key: .string, value: .variant, $0.map(\.dbusValue)) })]
        }
    }

    /// Strings of every length modulo 8 before integers and lists, so every padding rule is taken;
    /// empty strings, lists and dictionaries; NULs; text outside ASCII; extreme integers.
    static let dictionaries: [[Entry]] = {
        var all: [[Entry]] = [[]]
        for length in 0..<9 {
            let text = String(repeating: "x", count: length)
            all.append([
                Entry(key: "t", value: .text(text)),
                Entry(key: "n", value: .number(Int64(length) - 4)),
                Entry(key: "l", value: .list([text, "", text + "y"])),
                Entry(key: "k_longer_key", value: .text(text)),
            ])
        }
        all.append([
            Entry(key: "nul", value: .text("a\u{0}b\u{0}")),
            Entry(key: "min", value: .number(.min)),
            Entry(key: "max", value: .number(.max)),
            Entry(key: "none", value: .list([])),
            Entry(key: "unicode", value: .list(["ünïcödé", "日本語", "🎵", "\u{0}"])),
        ])
        return all
    }()

    /// The body libdbus's iterators write for `values`, as `dbus_message_marshal` gives it.
    func libdbusBody(_ values: [DBusValue]) throws -> [UInt8] {
        try LibdbusReference.body(values).bytes
    }

    @Test("every value type is written byte for byte as libdbus writes it", arguments: MessageBodyTests.everyType.indices)
    func everyType(_ index: Int) throws {
        let values = MessageBodyTests.everyType[index]
        #expect(try MessageBody(values).bytes == libdbusBody(values), "\(values)")
    }

    @Test("the round-trip samples, each alone and beside a byte, are written byte for byte as libdbus writes them")
    func samples() throws {
        for sample in ValueRoundTripTests.samples {
            for values in [[sample], [.byte(1), sample], [.variant(sample)]] {
                #expect(try MessageBody(values).bytes == libdbusBody(values), "\(sample.signature)")
            }
        }
    }

    /// A reply carrying `arguments`, made the way a connection makes it.
    func reply(_ arguments: some MessageArguments, to serial: UInt32 = 77, destination: String? = ":1.42") -> OpaquePointer? {
        WireMessage.make(WireMessage.Header(kind: .methodReturn, replySerial: serial, destination: destination), arguments: arguments)
    }

    @Test func aWrittenBodyIsByteForByteWhatLibdbusWrites() throws {
        for count in [0, 1, 2, Self.dictionaries.count] {
            let page = Page(dictionaries: Array(Self.dictionaries.prefix(count)))
            let message = try #require(reply(page))
            defer { dbus_message_unref(message) }
            let ours = try MessageBody(of: message, signature: "aa{sv}").bytes
            #expect(ours == (try libdbusBody(page.values)), "\(count) dictionaries")
        }
    }

    @Test func aReplyCarriesItsAddressAndNoSerialOfItsOwn() throws {
        let page = Page(dictionaries: Self.dictionaries)
        let message = try #require(reply(page))
        defer { dbus_message_unref(message) }
        #expect(dbus_message_get_type(message) == cdbus_message_type_method_return)
        #expect(dbus_message_get_reply_serial(message) == 77)
        #expect(String(cString: dbus_message_get_destination(message)) == ":1.42")
        #expect(String(cString: dbus_message_get_signature(message)) == "aa{sv}")
        #expect(dbus_message_get_serial(message) == 0)  // the connection numbers it
        #expect(dbus_message_get_no_reply(message) != 0)
        #expect(try MessageBody(of: message, signature: "aa{sv}").values() == page.values)
    }

    @Test func aSignalCarriesItsNamesAndItsDestinationWhenUnicast() throws {
        let page = Page(dictionaries: [Self.dictionaries[3]])
        for destination in [nil, ":1.7"] as [String?] {
            let message = try #require(WireMessage.make(
                WireMessage.Header(kind: .signal, path: "/org/mediabroker/Test", interface: "org.mediabroker.Test",
                                   member: "Added", destination: destination), arguments: page))
            defer { dbus_message_unref(message) }
            #expect(dbus_message_get_type(message) == cdbus_message_type_signal)
            #expect(String(cString: dbus_message_get_path(message)) == "/org/mediabroker/Test")
            #expect(String(cString: dbus_message_get_interface(message)) == "org.mediabroker.Test")
            #expect(String(cString: dbus_message_get_member(message)) == "Added")
            #expect(dbus_message_get_destination(message).map { String(cString: $0) } == destination)
            #expect(dbus_message_get_serial(message) == 0)
            #expect(try MessageBody(of: message, signature: "aa{sv}").values() == page.values)
        }
    }

    @Test func aMethodCallCarriesItsNamesAndFlags() throws {
        for (expectsReply, autoStart) in [(true, true), (false, false)] {
            let header = WireMessage.Header(
                kind: .methodCall, path: "/org/mediabroker/Test", interface: "org.mediabroker.Test", member: "Echo",
                destination: ":1.9", expectsReply: expectsReply, allowsAutoStart: autoStart)
            let message = try #require(WireMessage.make(header, arguments: ValueArguments([.string("x"), .int32(2)])))
            defer { dbus_message_unref(message) }
            #expect(dbus_message_get_type(message) == cdbus_message_type_method_call)
            #expect(String(cString: dbus_message_get_path(message)) == "/org/mediabroker/Test")
            #expect(String(cString: dbus_message_get_interface(message)) == "org.mediabroker.Test")
            #expect(String(cString: dbus_message_get_member(message)) == "Echo")
            #expect(String(cString: dbus_message_get_destination(message)) == ":1.9")
            #expect((dbus_message_get_no_reply(message) == 0) == expectsReply)
            #expect((dbus_message_get_auto_start(message) != 0) == autoStart)
            #expect(dbus_message_get_serial(message) == 0)
            #expect(try MessageBody(of: message, signature: "si").values() == [.string("x"), .int32(2)])
        }
    }

    @Test func anErrorCarriesItsNameAndMessage() throws {
        let header = WireMessage.Header(kind: .error, errorName: "org.mediabroker.Test.Error.Custom", replySerial: 5, destination: ":1.3")
        let message = try #require(WireMessage.make(header, arguments: ValueArguments([.string("it went wrong")])))
        defer { dbus_message_unref(message) }
        #expect(dbus_message_get_type(message) == cdbus_message_type_error)
        #expect(String(cString: dbus_message_get_error_name(message)) == "org.mediabroker.Test.Error.Custom")
        #expect(dbus_message_get_reply_serial(message) == 5)
        #expect(dbus_message_get_no_reply(message) != 0)
        #expect(try MessageBody(of: message, signature: "s").values() == [.string("it went wrong")])
    }

    /// Says `aa{sv}` but writes one `a{sv}`: a bug in the sender.
    struct Lying: MessageArguments {
        var signature: Signature { "aa{sv}" }
        func write(to writer: inout ArgumentWriter) {
            writer.appendVardict { $0.add("title", "not a page") }
        }
    }

    @Test func aMessageThatIsNotWhatItSaysOrThatLibdbusRefusesIsNotMade() {
        #expect(reply(Lying()) == nil)
        // Values that were not checked: libdbus's validation of the whole message refuses them.
        #expect(reply(ValueArguments([.array(element: .string, [.string("a"), .int32(1)])])) == nil)
        // A header naming an invalid path: libdbus's validation, not ours, says no.
        #expect(WireMessage.make(
            WireMessage.Header(kind: .signal, path: "not a path", interface: "org.mediabroker.Test", member: "Added"),
            arguments: Page(dictionaries: [])) == nil)
    }

    @Test func aPageLargerThanTheFirstBufferGrowsIt() throws {
        let long = String(repeating: "ü", count: 3000)
        let page = Page(dictionaries: Array(repeating: [Entry(key: "t", value: .text(long)), Entry(key: "n", value: .number(7))], count: 40))
        let message = try #require(reply(page))
        defer { dbus_message_unref(message) }
        #expect(try MessageBody(of: message, signature: "aa{sv}").bytes == (try libdbusBody(page.values)))
    }
}
