internal import CDBus
@testable import SwiftDBus
import Testing

/// A received message's body: kept as the bytes libdbus checked, compared byte for byte (what lets
/// a handler drop an exact repeat), and read whole on demand by ``BodyReader`` — in either byte
/// order, and without ever trusting a length or a depth it has not checked.
@Suite struct MessageBodyTests {
    /// The body of a signal carrying `values`, as a receiver gets it (written by libdbus).
    static func body(_ values: [DBusValue]) throws -> MessageBody { try LibdbusReference.body(values) }

    static let basics: [DBusValue] = [
        .byte(0xFE), .boolean(true), .boolean(false), .int16(-2), .uint16(0xFFFE), .int32(.min), .uint32(.max),
        .int64(.min), .uint64(.max), .double(-0.5), .string(""), .string("ünïcødé ✓"), .objectPath("/a/b"), .signature("a{sv}"),
    ]
    static let containers: [DBusValue] = [
        .array(element: .int64, []), .array(element: .byte, [.byte(1), .byte(2), .byte(3)]),
        .strings(["a", "bb", "ccc"]), .structure([.byte(1), .int64(2), .string("three")]),
        .dictionary(key: .uint32, value: "(yd)", [.init(key: .uint32(7), value: .structure([.byte(1), .double(2)]))]),
        .array(element: "ax", [.array(element: .int64, []), .array(element: .int64, [.int64(5)])]),
        .variant(.variant(.structure([.variant(.int16(3))]))),
        .dictionary(key: .string, value: .variant, []),
    ]
    /// Every type alone, then all of them together in one body, with every alignment after another.
    static let everyType: [[DBusValue]] = basics.map { [$0] } + containers.map { [$0] } + [basics, containers, [.byte(1)] + containers]

    static let metadata: DBusValue = .vardict([
        "xesam:title": .string("Teardrop"), "xesam:artist": .strings(["Massive Attack"]),
        "mpris:length": .int64(330_000_000), "mpris:trackid": .objectPath("/track/1"),
    ])
    static let propertiesChanged: [DBusValue] = [
        .string("org.mpris.MediaPlayer2.Player"),
        .vardict(["Metadata": metadata, "PlaybackStatus": .string("Playing")]),
        .strings([]),
    ]

    @Test("the same values sent twice make equal bodies; any other value, type or signature does not")
    func equality() throws {
        #expect(try Self.body(Self.propertiesChanged) == Self.body(Self.propertiesChanged))
        var paused = Self.propertiesChanged
        paused[1] = .vardict(["Metadata": Self.metadata, "PlaybackStatus": .string("Paused")])
        #expect(try Self.body(Self.propertiesChanged) != Self.body(paused))
        // The same four bytes, read as another type.
        #expect(try Self.body([.uint32(1)]) != Self.body([.int32(1)]))
        #expect(try Self.body([]) == Self.body([]))
        #expect(try Self.body([]) != Self.body([.byte(0)]))
    }

    @Test("a body decodes to the values that were sent, and a prefix of them on request")
    func decoding() throws {
        let body = try Self.body(Self.propertiesChanged)
        #expect(try body.values() == Self.propertiesChanged)
        #expect(try body.values(limit: 1) == [Self.propertiesChanged[0]])
        #expect(body.signature == "sa{sv}as")
    }

    @Test("every value type survives libdbus's writer and this reader, in arrays, structs and variants")
    func everyType() throws {
        for values in Self.everyType {
            #expect(try Self.body(values).values() == values, "\(values)")
        }
    }

    // MARK: Byte order

    /// A message written by hand in either byte order: a signal with `sa{sv}as`, as a big-endian
    /// player would send `PropertiesChanged` (libdbus forwards a message in its sender's order).
    static func handWritten(bigEndian: Bool) -> [UInt8] {
        var body = Writer(bigEndian: bigEndian)
        body.string("org.mpris.MediaPlayer2.Player")
        body.array(elementAlignment: 8) { dict in
            dict.pad(to: 8)
            dict.string("Rate")
            dict.signature("d")
            dict.pad(to: 8)
            dict.u64(Double(1.5).bitPattern)
            dict.pad(to: 8)
            dict.string("Volume")
            dict.signature("(ub)")
            dict.pad(to: 8)
            dict.u32(7)
            dict.u32(1)
        }
        body.array(elementAlignment: 4) { $0.string("Metadata") }

        var message = Writer(bigEndian: bigEndian)
        message.bytes([bigEndian ? UInt8(ascii: "B") : UInt8(ascii: "l"), 4, 0, 1])
        message.u32(UInt32(body.data.count))
        message.u32(1)
        message.array(elementAlignment: 8) { fields in
            for (code, type, text) in [(1, "o", "/org/mpris/MediaPlayer2"), (2, "s", "org.freedesktop.DBus.Properties"),
                                       (3, "s", "PropertiesChanged"), (8, "g", "sa{sv}as")] {
                fields.pad(to: 8)
                fields.bytes([UInt8(code)])
                fields.signature(type)
                if type == "g" { fields.signature(text) } else { fields.string(text) }
            }
        }
        message.pad(to: 8)
        return message.data + body.data
    }

    static let handWrittenValues: [DBusValue] = [
        .string("org.mpris.MediaPlayer2.Player"),
        .dictionary(key: .string, value: .variant, [
            .init(key: .string("Rate"), value: .variant(.double(1.5))),
            .init(key: .string("Volume"), value: .variant(.structure([.uint32(7), .boolean(true)]))),
        ]),
        .strings(["Metadata"]),
    ]

    @Test("a message in either byte order reads the same; its bodies differ", arguments: [false, true])
    func byteOrder(bigEndian: Bool) throws {
        let wire = Self.handWritten(bigEndian: bigEndian)
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        // libdbus checks the hand-written bytes just as it checks what arrives from the socket.
        let message = try #require(wire.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }, "\(error.message.map { String(cString: $0) } ?? "")")
        defer { dbus_message_unref(message) }
        var names = HeaderNames()
        let received = try BusMessage(reading: message, names: &names, decodingArguments: false)
        #expect(received.member == "PropertiesChanged")
        #expect(received.body.isBigEndian == bigEndian)
        #expect(received.arguments == Self.handWrittenValues)
        // libdbus writes little-endian here: the same bytes as the hand-written ones, or all others.
        let written = try Self.body(Self.handWrittenValues)
        #expect((received.body == written) == !bigEndian)
    }

    // MARK: Hostile bytes

    /// Bodies libdbus would never let through: the reader must throw, not trap or read past the end.
    static let malformed: [(String, Signature, [UInt8])] = [
        ("a string longer than the body", "s", [0xFF, 0, 0, 0, 0x61, 0]),
        ("a string without its NUL", "s", [1, 0, 0, 0, 0x61, 0x62]),
        ("a truncated integer", "x", [1, 2, 3]),
        ("an array longer than the body", "ay", [0xFF, 0xFF, 0xFF, 0x7F, 1]),
        ("an array element running past the array", "ai", [2, 0, 0, 0, 1, 0, 0, 0]),
        ("a boolean of 2", "b", [2, 0, 0, 0]),
        ("a variant of an unknown type", "v", [1, 0x7A, 0, 0, 1]),
        ("a variant holding two values", "v", [2, 0x79, 0x79, 0, 1, 2]),
        ("a variant with an empty type", "v", [0, 0]),
        ("a Unix fd", "h", [0, 0, 0, 0]),
        ("a dictionary entry without its value type", Signature(validated: "a{s}"), [0, 0, 0, 0]),
        ("nothing where a value is due", "u", []),
    ]

    @Test("malformed bytes are refused with an error", arguments: malformed.indices)
    func hostileBytes(_ index: Int) {
        let (what, signature, bytes) = Self.malformed[index]
        #expect(throws: MarshallingError.self, "\(what)") {
            try MessageBody(signature: signature, bytes: bytes, isBigEndian: false).values()
        }
    }

    @Test("variants nested past the limit are refused, at the limit they decode")
    func depthBomb() throws {
        func nested(_ depth: Int) -> [UInt8] {
            Array(repeating: [1, UInt8(ascii: "v"), 0], count: depth).flatMap { $0 } + [1, UInt8(ascii: "y"), 0, 42]
        }
        let deepest = try MessageBody(signature: .variant, bytes: nested(Marshalling.maximumDepth - 1), isBigEndian: false).values()
        #expect(deepest.first?.unwrapped == .byte(42))
        #expect(throws: MarshallingError.self) {
            try MessageBody(signature: .variant, bytes: nested(10_000), isBigEndian: false).values()
        }
    }

    // MARK: Header names

    @Test("header names come back as sent, whether reused or new, past the cache's capacity")
    func headerNames() {
        var names = HeaderNames()
        let texts = (0..<(HeaderNames.capacity * 3)).map { "org.mediabroker.Test.Name\($0 % (HeaderNames.capacity + 3))" }
            + ["org.mediabroker.Test.NameA", "org.mediabroker.Test.NameB", "short", ""]
        for text in texts + texts.reversed() {
            #expect(text.withCString { names.text($0) } == text)
        }
        #expect(names.text(nil) == nil)
    }
}

/// Writes the D-Bus wire format by hand (only what these tests need), in either byte order.
struct Writer {
    let bigEndian: Bool
    var data: [UInt8] = []

    mutating func bytes(_ bytes: [UInt8]) { data += bytes }
    mutating func pad(to boundary: Int) { while data.count % boundary != 0 { data.append(0) } }

    mutating func u32(_ value: UInt32) {
        pad(to: 4)
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { data += $0 }
    }

    mutating func u64(_ value: UInt64) {
        pad(to: 8)
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { data += $0 }
    }

    mutating func string(_ text: String) {
        u32(UInt32(text.utf8.count))
        data += text.utf8 + [0]
    }

    mutating func signature(_ text: String) {
        data.append(UInt8(text.utf8.count))
        data += text.utf8 + [0]
    }

    /// An array: its length, the padding to its first element, then what `elements` writes.
    mutating func array(elementAlignment: Int, _ elements: (inout Writer) -> Void) {
        u32(0)
        let lengthAt = data.count - 4
        pad(to: elementAlignment)
        let start = data.count
        var inner = Writer(bigEndian: bigEndian, data: data)
        elements(&inner)
        data = inner.data
        let length = UInt32(data.count - start)
        withUnsafeBytes(of: bigEndian ? length.bigEndian : length.littleEndian) { data.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
    }
}
