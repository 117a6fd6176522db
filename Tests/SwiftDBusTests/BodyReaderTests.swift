internal import CDBus
@testable import SwiftDBus
import Testing

/// Reading a body where it lies (``BodyReader``): arguments in order, dictionary entries visited
/// with their keys as bytes, values decoded only on request and otherwise stepped over — always
/// giving what decoding the whole body gives, and never reading past it.
@Suite struct BodyReaderTests {
    static func body(_ values: [DBusValue]) throws -> MessageBody { try MessageBodyTests.body(values) }

    /// Every entry of every dictionary argument as the reader visits it: each key, and its value
    /// decoded (one variant removed) when `decoding` says so for that key.
    static func visit(_ body: MessageBody, decoding: (String) -> Bool = { _ in true }) throws -> [[(String, DBusValue?)]] {
        var visited: [[(String, DBusValue?)]] = []
        try body.read { reader throws(MarshallingError) in
            while !reader.isAtEnd {
                var entries: [(String, DBusValue?)] = []
                let isDictionary = try reader.entries { key, value throws(MarshallingError) in
                    entries.append((key.string, decoding(key.string) ? try value.value() : nil))
                }
                visited.append(isDictionary ? entries : [])
            }
        }
        return visited
    }

    /// What decoding the whole body gives for the same visit.
    static func expected(_ values: [DBusValue], decoding: (String) -> Bool = { _ in true }) -> [[(String, DBusValue?)]] {
        values.map { value in
            guard case .dictionary(let key, _, let entries) = value.unwrapped, key == .string || key == .objectPath else { return [] }
            return entries.map { entry in
                let name = (try? entry.key.string()) ?? ""
                var inner = entry.value
                if case .variant(let content) = inner { inner = content }
                return (name, decoding(name) ? inner : nil)
            }
        }
    }

    static func same(_ a: [[(String, DBusValue?)]], _ b: [[(String, DBusValue?)]]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        }
    }

    static let shapes: [(String, [DBusValue])] = [
        ("a PropertiesChanged", MessageBodyTests.propertiesChanged),
        ("keys sent twice, in order", [.dictionary(key: .string, value: .variant, [
            .init(key: .string("k"), value: .variant(.int32(1))), .init(key: .string("k"), value: .variant(.int32(2))),
        ])]),
        ("a dictionary inside two variants", [.variant(.variant(.vardict(["a": .string("deep")])))]),
        ("a value inside two variants keeps the inner one", [.vardict(["a": .variant(.variant(.string("v")))])]),
        ("object-path keys", [.dictionary(key: .objectPath, value: .variant, [.init(key: .objectPath("/x"), value: .variant(.byte(7)))])]),
        ("a{ss}: plain values", [.dictionary(key: .string, value: .string, [.init(key: .string("t"), value: .string("plain"))])]),
        ("a{sa{sv}}: nested dictionaries as values", [.dictionary(key: .string, value: Signature("a{sv}"), [
            .init(key: .string("inner"), value: .vardict(["x": .double(1.5)])),
        ])]),
        ("an empty dictionary", [.vardict([:])]),
        ("values of every alignment beside each other", [.vardict([
            "y": .byte(1), "n": .int16(-2), "q": .uint16(3), "b": .boolean(true), "i": .int32(-4), "u": .uint32(5),
            "x": .int64(-6), "t": .uint64(7), "d": .double(8.5), "s": .string("é"), "o": .objectPath("/p"),
            "g": .signature("a{sv}"), "as": .strings(["a", "", "b"]), "ay": .array(element: .byte, []),
            "(is)": .structure([.int32(1), .string("s")]), "av": .array(element: .variant, [.variant(.int64(9))]),
        ])]),
        ("not dictionaries: a string, an array, an a{is}", [.string("s"), .strings(["x"]),
                                                           .dictionary(key: .int32, value: .string, [.init(key: .int32(1), value: .string("one"))])]),
        ("several dictionaries, other values between", [.vardict(["a": .int32(1)]), .uint64(2), .vardict(["b": .strings(["c"])])]),
    ]

    @Test("visiting every entry and reading every value gives what decoding the whole body gives", arguments: shapes.indices)
    func readingAll(_ index: Int) throws {
        let (what, values) = Self.shapes[index]
        #expect(Self.same(try Self.visit(Self.body(values)), Self.expected(values)), "\(what)")
    }

    @Test("values not read are stepped over: the entries after them still read right", arguments: shapes.indices)
    func skippingSome(_ index: Int) throws {
        let (what, values) = Self.shapes[index]
        // Every other key by its length, so both reads and skips follow each shape's values.
        let some: (String) -> Bool = { $0.utf8.count % 2 == 0 }
        #expect(Self.same(try Self.visit(Self.body(values), decoding: some), Self.expected(values, decoding: some)), "\(what)")
        let none: (String) -> Bool = { _ in false }
        #expect(Self.same(try Self.visit(Self.body(values), decoding: none), Self.expected(values, decoding: none)), "\(what)")
    }

    @Test("an array's elements are visited in order: read, stepped over, or read as dictionaries", arguments: [
        DBusValue.array(element: .vardict, [.vardict(["a": .int32(1), "b": .strings(["x"])]), .vardict([:]), .vardict(["c": .double(2)])]),
        .array(element: .string, [.string("one"), .string(""), .string("three")]),
        .array(element: .variant, [.variant(.int64(1)), .variant(.vardict(["k": .string("v")])), .variant(.byte(3))]),
        .array(element: Signature("(is)"), [.structure([.int32(1), .string("s")]), .structure([.int32(2), .string("t")])]),
        .array(element: .int64, []),
        .variant(.array(element: .uint32, [.uint32(7), .uint32(8)])),
    ])
    func arrayElements(_ value: DBusValue) throws {
        guard case .array(_, let items) = value.unwrapped else { throw MarshallingError(reason: "not an array") }
        let body = try Self.body([value, .string("after")])
        for every in 1...3 {
            // Every `every`th element read whole (as dictionary entries when it is one), the rest stepped over.
            var read: [DBusValue?] = [], entries: [[String]] = [], after: DBusValue?
            try body.read { reader throws(MarshallingError) in
                var index = 0
                let isArray = try reader.elements { element throws(MarshallingError) in
                    defer { index += 1 }
                    guard index % every == 0 else { return read.append(nil) }
                    if case .dictionary = items[index].unwrapped {
                        var keys: [String] = []
                        _ = try element.entries { key, _ throws(MarshallingError) in keys.append(key.string) }
                        entries.append(keys)
                        read.append(nil)
                    } else {
                        read.append(try element.value())
                    }
                }
                #expect(isArray)
                after = try reader.value()
            }
            let expected: [DBusValue?] = items.enumerated().map { index, item in
                guard index % every == 0, !item.isDictionary else { return nil }
                if case .variant(let inner) = item { return inner }
                return item
            }
            #expect(read == expected)
            #expect(entries == items.enumerated().compactMap { index, item in
                guard index % every == 0, case .dictionary(_, _, let list) = item.unwrapped else { return nil }
                return list.map { (try? $0.key.string()) ?? "" }
            })
            #expect(after == .string("after"))
        }
    }

    @Test("a dictionary is no array to visit, nor an array a dictionary: each is stepped over")
    func arraysAndDictionariesApart() throws {
        let body = try Self.body([.vardict(["a": .int32(1)]), .strings(["x"]), .int32(9)])
        var results: [Bool] = []
        var last: DBusValue?
        try body.read { reader throws(MarshallingError) in
            results.append(try reader.elements { _ throws(MarshallingError) in })
            results.append(try reader.entries { _, _ throws(MarshallingError) in })
            last = try reader.value()
        }
        #expect(results == [false, false])
        #expect(last == .int32(9))
    }

    @Test("arguments read whole come out as values() gives them, in order")
    func wholeArguments() throws {
        let values: [DBusValue] = [.string("x"), .vardict(["a": .int32(1)]), .strings(["y"])]
        var read: [DBusValue] = []
        try Self.body(values).read { reader throws(MarshallingError) in
            while !reader.isAtEnd { read.append(try reader.value()) }
        }
        #expect(read == values)
    }

    @Test("keys compare byte for byte with static text, not by prefix or case")
    func keyComparison() throws {
        var matches: [Bool] = []
        try Self.body([.vardict(["Metadata": .int32(1)])]).read { reader throws(MarshallingError) in
            _ = try reader.entries { key, _ throws(MarshallingError) in
                matches = [key.equals("Metadata"), key.equals("metadata"), key.equals("Meta"), key.equals("MetadataX"), key.equals("")]
            }
        }
        #expect(matches == [true, false, false, false, false])
    }

    @Test("reading past the last argument, or a value twice, throws rather than reading on")
    func misuseThrows() throws {
        let body = try Self.body([.vardict(["a": .int32(1)])])
        #expect(throws: MarshallingError.self) {
            try body.read { reader throws(MarshallingError) in
                _ = try reader.value()
                _ = try reader.value()
            }
        }
        #expect(throws: MarshallingError.self) {
            try body.read { reader throws(MarshallingError) in
                _ = try reader.entries { _, value throws(MarshallingError) in
                    _ = try value.value()
                    _ = try value.value()
                }
            }
        }
    }

    @Test("a body in the other byte order reads as its values", arguments: [false, true])
    func byteOrder(bigEndian: Bool) throws {
        let wire = MessageBodyTests.handWritten(bigEndian: bigEndian)
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let message = try #require(wire.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        })
        defer { dbus_message_unref(message) }
        var names = HeaderNames()
        let body = try BusMessage(reading: message, names: &names, decodingArguments: false).body
        #expect(body.isBigEndian == bigEndian)
        let values = MessageBodyTests.handWrittenValues
        #expect(Self.same(try Self.visit(body), Self.expected(values)))
        // Stepping over reads lengths in the body's byte order too.
        let some: (String) -> Bool = { $0 == "Volume" }
        #expect(Self.same(try Self.visit(body, decoding: some), Self.expected(values, decoding: some)))
        let none: (String) -> Bool = { _ in false }
        #expect(Self.same(try Self.visit(body, decoding: none), Self.expected(values, decoding: none)))
    }

    /// Stepping over checks bounds and types, not the contents of a container it jumps (libdbus
    /// checked those): these two pass unread, every other malformed body is refused.
    static let passUnread: Set<String> = ["an array element running past the array", "a boolean of 2"]

    @Test("malformed bytes are refused when stepped over, but for contents of a container jumped whole",
          arguments: MessageBodyTests.malformed.indices)
    func hostileBytesSteppedOver(_ index: Int) {
        let (what, signature, bytes) = MessageBodyTests.malformed[index]
        let body = MessageBody(signature: signature, bytes: bytes, isBigEndian: false)
        let read = try? Self.visit(body, decoding: { _ in false })
        #expect((read != nil) == Self.passUnread.contains(what), "\(what)")
    }

    @Test("a value this layer cannot carry (a Unix fd) fails the read even when its failure is caught")
    func caughtFailureIsNoSkip() throws {
        // `a{sv}s`: {"a": <h 0>, "b": <s "hi">}, "after" — written by hand, as libdbus would send it.
        var bytes: [UInt8] = [35, 0, 0, 0, 0, 0, 0, 0]
        bytes += [1, 0, 0, 0, 0x61, 0, 1, 0x68, 0, 0, 0, 0, 0, 0, 0, 0]       // "a": variant 'h', fd 0
        bytes += [1, 0, 0, 0, 0x62, 0, 1, 0x73, 0, 0, 0, 0, 2, 0, 0, 0, 0x68, 0x69, 0]  // "b": variant 's' "hi"
        bytes += [0, 5, 0, 0, 0] + Array("after".utf8) + [0]
        let body = MessageBody(signature: Signature(validated: "a{sv}s"), bytes: bytes, isBigEndian: false)
        #expect(throws: MarshallingError.self) { try body.values() }
        var seen: [String] = []
        #expect(throws: MarshallingError.self) {
            try body.read { reader throws(MarshallingError) in
                _ = try reader.entries { key, value throws(MarshallingError) in
                    seen.append(key.string)
                    _ = try? value.value()
                }
            }
        }
        // The failed read was not taken as read: stepping over it met the fd and stopped there.
        #expect(seen == ["a"])
    }

    @Test("a value whose read fails, and is caught, is stepped over: the entries after it read right")
    func failedReadIsSteppedOver() throws {
        // An `a{sv}` whose first value holds a boolean of 2, which the decoder refuses.
        let honest = try Self.body([.vardict(["a": .boolean(true)]), .string("after")])
        var bytes = honest.bytes
        let at = try #require(bytes.indices.last { index in index + 4 <= bytes.count && bytes[index..<(index + 4)] == [1, 0, 0, 0] })
        bytes[at] = 2
        let body = MessageBody(signature: honest.signature, bytes: bytes, isBigEndian: false)
        var failures = 0
        var after: DBusValue?
        try body.read { reader throws(MarshallingError) in
            _ = try reader.entries { _, value throws(MarshallingError) in
                do { _ = try value.value() } catch { failures += 1 }
            }
            after = try reader.value()
        }
        #expect(failures == 1)
        #expect(after == .string("after"))
    }

    @Test("malformed bytes are refused when read", arguments: MessageBodyTests.malformed.indices)
    func hostileBytes(_ index: Int) {
        let (what, signature, bytes) = MessageBodyTests.malformed[index]
        let body = MessageBody(signature: signature, bytes: bytes, isBigEndian: false)
        #expect(throws: MarshallingError.self, "\(what)") {
            try body.read { reader throws(MarshallingError) in
                while !reader.isAtEnd { _ = try reader.value() }
            }
        }
    }

    /// Stepping over a value checks its bounds, not its contents (libdbus checked those): over
    /// malformed bytes the reader may throw or go on, but it must stop at the end of the body —
    /// in a debug build, any read past it traps and fails the test.
    @Test("stepping over malformed bytes or lying lengths never reads past the body",
          arguments: [4, 8, 12, 16, 20, 24, 28, 32])
    func lyingLengths(_ at: Int) throws {
        let honest = try Self.body([.vardict(["key": .strings(["a", "b"]), "other": .int64(1), "x": .variant(.string("v"))])])
        try #require(at + 4 <= honest.bytes.count)
        for lie: [UInt8] in [[0xff, 0xff, 0xff, 0x7f], [0x40, 0, 0, 0], [0, 0, 0, 0]] {
            var bytes = honest.bytes
            bytes.replaceSubrange(at..<(at + 4), with: lie)
            let lying = MessageBody(signature: honest.signature, bytes: bytes, isBigEndian: false)
            // Read whole, it must agree with `values()` whenever both succeed.
            if let read = try? Self.visit(lying), let decoded = try? lying.values() {
                #expect(Self.same(read, Self.expected(decoded)))
            }
            _ = try? Self.visit(lying, decoding: { _ in false })
        }
        for (_, signature, bytes) in MessageBodyTests.malformed {
            _ = try? Self.visit(MessageBody(signature: signature, bytes: bytes, isBigEndian: false), decoding: { _ in false })
        }
    }
}

private extension DBusValue {
    var isDictionary: Bool {
        if case .dictionary = unwrapped { return true }
        return false
    }
}
