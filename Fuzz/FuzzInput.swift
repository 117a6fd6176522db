// The fuzzer's byte format: how a run of bytes becomes D-Bus values and listening events.
//
// Every byte string decodes to *something* (unknown tags map onto known ones, a short read gives
// zeros), so libFuzzer's mutations always reach the code under test. The same format is written by
// `Fuzz/capture` (real players' `GetAll` replies) and `Fuzz/seeds.py` (the shapes of
// mpris-quirks.md), which make the seed corpus.
//
// A value is one tag byte and its payload (integers little-endian):
//   y u8 · b u8 (low bit) · n/q 2 bytes · i/u 4 · x/t 8 · d 8 (the IEEE bits)
//   s  u16 length, UTF-8 bytes (invalid UTF-8 is repaired, as libdbus never delivers it)
//   o  u16 length, bytes: an object path when valid, else a string
//   g  u16 length, bytes: a signature when valid, else a string
//   S  u8 length, bytes, u16 count: the bytes repeated count times, up to 64 KiB; count 0xFFFF makes
//      1 MiB + 4 KiB of them — 1 MB titles
//   a  u16 count, then count values: an array typed by its first element (`v` when empty)
//   A  u16 count, then one value: an array of that value repeated count times — 10,000 artists
//   e  u8 count, then count × (u8 key length, key bytes, value): an `a{sv}`
//   E  u8 count, then count × (value, value): a dictionary with any key (non-basic keys become strings)
//   r  u8 count, then count values: a struct
//   v  value: a variant
//   V  u8 depth, then value: `depth` variants around it — variants nested 64 deep and more
// Any other tag byte stands for the tag at (byte mod 21) in "ybnqiuxtdsogSaAerEvVs".

@testable import SwiftDBus

struct FuzzInput {
    private let bytes: [UInt8]
    private(set) var offset = 0
    /// Values one input may make; past it containers stop growing. Far above every bound the code
    /// under test has (64 artists, 16 genres, variants nested 64 deep), so every branch is reached;
    /// the 10,000 artists are a test of their own (`MetadataHostileTests`), and libFuzzer
    /// counts a loop's iterations only up to "128 or more", so longer arrays show it nothing new.
    /// The budget keeps one run fast: the decoder cleans each string it is given, about 150 ns a
    /// character under ASan, and at 12,000 values and 3 MiB of text the fuzzer kept finding inputs
    /// of 0.4–10 s and spent most of its time in them.
    private var budget = 1_024
    /// Bytes of text one input may make: one 1 MB title, or many small strings.
    private var textBudget = hugeStringBytes + maxStringBytes
    static let maxDepth = 96
    static let maxStringBytes = 64 << 10
    static let hugeStringBytes = (1 << 20) + 4096

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type = T.self) -> T {
        var value: T = 0
        for index in 0..<(T.bitWidth / 8) { value |= T(truncatingIfNeeded: byte()) << (index * 8) }
        return value
    }

    mutating func raw(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + count)
        defer { offset = max(offset, end) }
        return offset < end ? Array(bytes[offset..<end]) : []
    }

    mutating func text(_ count: Int) -> String {
        let text = String(decoding: raw(count), as: UTF8.self)
        textBudget -= text.utf8.count
        return text
    }

    /// The tags, named as their bytes. Switching over this enum compiles to one jump table; a switch
    /// over the bytes themselves was a chain of comparisons, each traced by the coverage
    /// instrumentation, and a sixth of the fuzzer's time.
    enum Tag: CaseIterable {
        case y, b, n, q, i, u, x, t, d, s, o, g, S, a, A, e, r, E, v, V

        var isContainer: Bool { [.a, .A, .e, .r, .E, .v, .V].contains(self) }
    }
    static let tags = Array("ybnqiuxtdsogSaAerEvVs".utf8)
    /// The tag each byte stands for, as a table: this runs for every value of every input.
    private static let tagOfByte: [Tag] = (0...255).map { byte in
        let letter = tags.contains(UInt8(byte)) ? UInt8(byte) : tags[byte % tags.count]
        return Tag.allCases.first { "\($0)".utf8.first == letter } ?? .s
    }
    private static let isContainer: [Bool] = tagOfByte.map(\.isContainer)

    /// One value; at the end of the input a value is still made (from zeros).
    mutating func value(depth: Int = 0) -> DBusValue {
        budget -= 1
        let code = Int(byte())
        // Past the depth or the budget, containers become leaves.
        let tag: Tag = (depth >= Self.maxDepth || budget <= 0) && Self.isContainer[code] ? .s : Self.tagOfByte[code]
        switch tag {
        case .y: return .byte(byte())
        case .b: return .boolean(byte() & 1 == 1)
        case .n: return .int16(integer())
        case .q: return .uint16(integer())
        case .i: return .int32(integer())
        case .u: return .uint32(integer())
        case .x: return .int64(integer())
        case .t: return .uint64(integer())
        case .d: return .double(Double(bitPattern: integer()))
        case .o:
            let text = text(Int(integer(UInt16.self)))
            return (try? ObjectPath(text)).map(DBusValue.objectPath) ?? .string(text)
        case .g:
            let text = text(Int(integer(UInt16.self)))
            return (try? Signature(text)).map(DBusValue.signature) ?? .string(text)
        case .S:
            let piece = text(Int(byte()))
            let count = Int(integer(UInt16.self))
            guard !piece.isEmpty else { return .string("") }
            // Huge strings only when asked for exactly: scanning a megabyte under coverage
            // instrumentation costs milliseconds, and the fuzzer would otherwise make them all the time.
            let cap = min(count == 0xFFFF ? Self.hugeStringBytes : Self.maxStringBytes, max(0, textBudget))
            let repeats = min(count, cap / max(1, piece.utf8.count))
            textBudget -= repeats * piece.utf8.count
            return .string(String(repeating: piece, count: repeats))
        case .a:
            let count = Int(integer(UInt16.self))
            var items: [DBusValue] = []
            for _ in 0..<count where !isAtEnd && budget > 0 { items.append(value(depth: depth + 1)) }
            return .array(element: items.first?.signature ?? .variant, items)
        case .A:
            let count = Int(integer(UInt16.self))
            let before = (budget, textBudget)
            let item = value(depth: depth + 1)
            // A repeat costs no input bytes, but over the bus every copy is paid for: each copy is
            // charged the values and the text the item is made of, so the total stays within what
            // one real message could carry. Copies share at most `maxStringBytes` of text: the
            // decoder cleans every copy again, so a repeated 1 MB title would cost seconds and
            // reach nothing one title does not.
            let nodes = max(1, before.0 - budget)
            let text = max(1, before.1 - textBudget)
            let repeatText = min(max(0, textBudget), Self.maxStringBytes)
            let repeats = max(1, min(count, max(0, budget) / nodes, repeatText / text))
            // Floors keep the arithmetic bounded when nested repeats overspend.
            budget = max(-1, budget - repeats * nodes)
            textBudget = max(-1, textBudget - repeats * text)
            return .array(element: item.signature, Array(repeating: item, count: repeats))
        case .e:
            let count = Int(byte())
            var entries: [String: DBusValue] = [:]
            for _ in 0..<count where !isAtEnd && budget > 0 {
                let key = text(Int(byte()))
                entries[key] = value(depth: depth + 2)
            }
            return .vardict(entries)
        case .E:
            let count = Int(byte())
            var entries: [DBusValue.DictionaryEntry] = []
            var keyType: Signature?
            var valueType: Signature?
            for _ in 0..<count where !isAtEnd && budget > 0 {
                var key = value(depth: depth + 2)
                if !key.isBasic { key = .string("\(key.signature)") }
                let value = value(depth: depth + 2)
                keyType = keyType ?? key.signature
                valueType = valueType ?? value.signature
                entries.append(.init(key: key, value: value))
            }
            return .dictionary(key: keyType ?? .string, value: valueType ?? .variant, entries)
        case .r:
            let count = Int(byte())
            var fields: [DBusValue] = []
            for _ in 0..<count where !isAtEnd && budget > 0 { fields.append(value(depth: depth + 1)) }
            return .structure(fields)
        case .v:
            return .variant(value(depth: depth + 1))
        case .V:
            let wraps = Int(byte())
            budget -= wraps
            var inner = value(depth: depth + wraps)
            for _ in 0..<wraps { inner = .variant(inner) }
            return inner
        case .s:
            return .string(text(Int(integer(UInt16.self))))
        }
    }

    /// A value read as a string-keyed dictionary when it is one; anything else is wrapped as the
    /// single key `"?"`, so non-dictionary input still reaches the readers.
    mutating func dictionary() -> [String: DBusValue] {
        let value = value()
        return (try? value.vardict()) ?? ["?": value]
    }
}
