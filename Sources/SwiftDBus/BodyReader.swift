#if canImport(Glibc)
import Glibc
#endif

/// Reads a received body's arguments in order, decoding only what the caller asks for: the entries
/// of a dictionary are visited where they lie, their keys are compared without becoming `String`s,
/// and a value no one asks for is stepped over without becoming a ``DBusValue``.
///
/// For the few messages a daemon receives by the thousand and reads a handful of keys of: a
/// player's `PropertiesChanged` carries a dozen `Metadata` entries, nested in variants and arrays,
/// of which a follower reads nine. Built into a ``DBusValue`` tree, copied and released, that tree
/// cost more than the rest of a track change's handling in Swift (callgrind, bench track changes).
///
/// Every read is bounds-checked like ``MessageBody/values()``, whose decoding it shares; what is
/// stepped over is checked against the signature and the end of the body, not decoded. A read that
/// throws leaves the reader where it was, so a value a caller fails to read (and catches) is then
/// stepped over like any unread value. The reader, and the keys and readers it hands out, point
/// into the body: they are valid only inside the ``MessageBody/read(_:)`` that made them.
public struct BodyReader: ~Copyable {
    fileprivate var wire: WireReader
    fileprivate var types: WireReader.Types

    /// Whether every argument has been read.
    public var isAtEnd: Bool { types.isAtEnd }

    /// The next argument, decoded whole. Throws when there is none.
    public mutating func value() throws(MarshallingError) -> DBusValue {
        try advancing { wire, types throws(MarshallingError) in try wire.value(&types, depth: 0) }
    }

    /// Visits the elements of the next argument when it is — inside any variants — an array (not a
    /// dictionary): `visit` gets a reader of each element, in order; an element it does not read is
    /// stepped over. Any other argument is stepped over, and `false` returned.
    public mutating func elements(_ visit: (inout ValueReader) throws(MarshallingError) -> Void) throws(MarshallingError) -> Bool {
        try advancing { wire, types throws(MarshallingError) in try wire.elements(&types, depth: 0, visit) }
    }

    /// Visits the entries of the next argument when it is — inside any variants — a dictionary
    /// keyed by strings or object paths (`a{s…}`, `a{o…}`): `visit` gets each key and a reader of
    /// its value, in order; a value it does not read is stepped over. Any other argument is stepped
    /// over, and `false` returned.
    public mutating func entries(
        _ visit: (borrowing EntryKey, inout ValueReader) throws(MarshallingError) -> Void
    ) throws(MarshallingError) -> Bool {
        try advancing { wire, types throws(MarshallingError) in try wire.entries(&types, depth: 0, visit) }
    }

    /// Runs `read` on copies of the position and keeps them only if it succeeds.
    private mutating func advancing<T>(
        _ read: (inout WireReader, inout WireReader.Types) throws(MarshallingError) -> T
    ) throws(MarshallingError) -> T {
        var (movedWire, movedTypes) = (wire, types)
        let result = try read(&movedWire, &movedTypes)
        (wire, types) = (movedWire, movedTypes)
        return result
    }
}

/// A dictionary entry's key as it lies in the body, lent to the visit that gets it.
public struct EntryKey: ~Copyable {
    /// The key's bytes (UTF-8, which libdbus checked), without the terminating NUL.
    fileprivate let utf8: UnsafeRawBufferPointer

    /// The key's length in bytes.
    public var count: Int { utf8.count }

    /// Whether the key is `name`, byte for byte: the names a reader looks for are static text,
    /// compared without making or touching a `String`.
    public func equals(_ name: StaticString) -> Bool {
        guard name.hasPointerRepresentation, name.utf8CodeUnitCount == utf8.count else { return false }
        guard let base = utf8.baseAddress else { return true }
        return memcmp(name.utf8Start, base, utf8.count) == 0
    }

    /// The key as a `String`.
    public var string: String { String(decoding: utf8, as: UTF8.self) }
}

/// One value inside an argument — a dictionary entry's (``BodyReader/entries(_:)``) or an array
/// element (``BodyReader/elements(_:)``): read it, or leave it to be stepped over. A read that
/// throws counts as none: the value is then stepped over.
public struct ValueReader: ~Copyable {
    fileprivate var wire: WireReader
    fileprivate let type: UnsafeRawBufferPointer
    fileprivate let depth: Int
    fileprivate var isRead = false

    /// The value decoded, one variant wrapper removed — as ``DBusValue/vardict()`` takes an
    /// `a{sv}`'s values. Reading it a second time throws.
    public mutating func value() throws(MarshallingError) -> DBusValue {
        try reading { wire, types, depth throws(MarshallingError) in
            guard types.text.count == 1, types.text[0] == UInt8(ascii: "v") else {
                let value = try wire.value(&types, depth: depth)
                guard types.isAtEnd else { throw WireReader.malformed("a value of more than one type") }
                return value
            }
            // The variant's content, decoded where it lies rather than boxed and unwrapped.
            var inner = WireReader.Types(text: try wire.signatureText(), index: 0)
            let content = try wire.value(&inner, depth: depth + 1)
            guard inner.isAtEnd else { throw WireReader.malformed("a variant holding more than one value") }
            return content
        }
    }

    /// Visits the entries of the value (see ``BodyReader/entries(_:)``). Reading it a second time
    /// throws.
    public mutating func entries(
        _ visit: (borrowing EntryKey, inout ValueReader) throws(MarshallingError) -> Void
    ) throws(MarshallingError) -> Bool {
        try reading { wire, types, depth throws(MarshallingError) in try wire.entries(&types, depth: depth, visit) }
    }

    /// Runs `read` on a copy of the position and keeps it, marking the value read, only if it
    /// succeeds.
    private mutating func reading<T>(
        _ read: (inout WireReader, inout WireReader.Types, Int) throws(MarshallingError) -> T
    ) throws(MarshallingError) -> T {
        guard !isRead else { throw MarshallingError(reason: "a value read twice") }
        var moved = wire
        var types = WireReader.Types(text: type, index: 0)
        let result = try read(&moved, &types, depth)
        wire = moved
        isRead = true
        return result
    }
}

extension MessageBody {
    /// Reads the body through `read`, which takes the arguments in order (see ``BodyReader``) and
    /// keeps what it needs. Not generic over a result: across the module boundary a generic
    /// `read<T>` ran unspecialised, asking the runtime for `Result<T, …>` on every message.
    public func read(_ read: (inout BodyReader) throws(MarshallingError) -> Void) throws(MarshallingError) {
        var text = signature.rawValue
        var failure: MarshallingError?
        text.withUTF8 { signature in
            bytes.withUnsafeBytes { body in
                var reader = BodyReader(
                    wire: WireReader(body, isBigEndian: isBigEndian),
                    types: WireReader.Types(text: UnsafeRawBufferPointer(signature), index: 0))
                do throws(MarshallingError) { try read(&reader) } catch { failure = error }
            }
        }
        if let failure { throw failure }
    }
}

extension WireReader {
    /// Visits a dictionary's entries (see ``BodyReader/entries(_:)``); `types` is at the value's
    /// type, variants around the dictionary are unwrapped.
    fileprivate mutating func entries(
        _ types: inout Types, depth: Int, _ visit: (borrowing EntryKey, inout ValueReader) throws(MarshallingError) -> Void
    ) throws(MarshallingError) -> Bool {
        try container(&types, depth: depth) { wire, types, depth throws(MarshallingError) in
            let start = types.index
            let element = types.text.count > start + 1 ? types.text[start + 1] : 0
            let key = types.text.count > start + 2 ? types.text[start + 2] : 0
            guard types.text[start] == UInt8(ascii: "a"), element == UInt8(ascii: "{"),
                  key == UInt8(ascii: "s") || key == UInt8(ascii: "o") else { return false }
            types.index += 1
            let (entryType, end) = try wire.arrayHeader(&types)
            guard entryType.count >= 4 else { throw Self.malformed("a dictionary entry type without key and value") }
            let valueType = UnsafeRawBufferPointer(rebasing: entryType[2..<(entryType.count - 1)])
            while wire.offset < end {
                try wire.align(8)
                let name = EntryKey(utf8: try wire.terminated(Int(try wire.fixed(UInt32.self))))
                try wire.visitValue(of: valueType, depth: depth + 2) { value throws(MarshallingError) in try visit(name, &value) }
            }
            guard wire.offset == end else { throw Self.malformed("a dictionary entry runs past the array") }
            return true
        }
    }

    /// Visits an array's elements (see ``BodyReader/elements(_:)``); `types` is at the value's type,
    /// variants around the array are unwrapped.
    fileprivate mutating func elements(
        _ types: inout Types, depth: Int, _ visit: (inout ValueReader) throws(MarshallingError) -> Void
    ) throws(MarshallingError) -> Bool {
        try container(&types, depth: depth) { wire, types, depth throws(MarshallingError) in
            let start = types.index
            guard types.text[start] == UInt8(ascii: "a"), types.text.count > start + 1,
                  types.text[start + 1] != UInt8(ascii: "{") else { return false }
            types.index += 1
            let (elementType, end) = try wire.arrayHeader(&types)
            while wire.offset < end {
                try wire.visitValue(of: elementType, depth: depth + 1, visit)
            }
            guard wire.offset == end else { throw Self.malformed("an array element runs past the array") }
            return true
        }
    }

    /// The value at `types` — inside any variants — read by `read` when it is the container `read`
    /// takes (it answers `true`, having read it), else stepped over (`read` answers `false`, having
    /// read nothing). Whether `read` took it.
    private mutating func container(
        _ types: inout Types, depth: Int,
        _ read: (inout WireReader, inout Types, Int) throws(MarshallingError) -> Bool
    ) throws(MarshallingError) -> Bool {
        guard depth <= Marshalling.maximumDepth else { throw Self.malformed("values nested more than \(Marshalling.maximumDepth) deep") }
        let start = types.index
        if try types.peek() == UInt8(ascii: "v") {
            types.index += 1
            var inner = Types(text: try signatureText(), index: 0)
            let found = try container(&inner, depth: depth + 1, read)
            guard inner.isAtEnd else { throw Self.malformed("a variant holding more than one value") }
            return found
        }
        if try read(&self, &types, depth) { return true }
        types.index = start
        try skip(&types, depth: depth)
        return false
    }

    /// Hands `visit` a reader of the value of type `type` here, then steps over it unless `visit`
    /// read it.
    private mutating func visitValue(
        of type: UnsafeRawBufferPointer, depth: Int, _ visit: (inout ValueReader) throws(MarshallingError) -> Void
    ) throws(MarshallingError) {
        var value = ValueReader(wire: self, type: type, depth: depth)
        try visit(&value)
        self = value.wire
        guard !value.isRead else { return }
        var skipped = Types(text: type, index: 0)
        try skip(&skipped, depth: depth)
        guard skipped.isAtEnd else { throw Self.malformed("a value of more than one type") }
    }

    /// Steps over one complete value of the type at `types`, checking it against the end of the
    /// body but making nothing of it.
    fileprivate mutating func skip(_ types: inout Types, depth: Int) throws(MarshallingError) {
        guard depth <= Marshalling.maximumDepth else { throw Self.malformed("values nested more than \(Marshalling.maximumDepth) deep") }
        let code = try types.next()
        switch code {
        case UInt8(ascii: "y"): _ = try fixed(UInt8.self)
        case UInt8(ascii: "n"), UInt8(ascii: "q"): _ = try fixed(UInt16.self)
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"): _ = try fixed(UInt32.self)
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): _ = try fixed(UInt64.self)
        case UInt8(ascii: "s"), UInt8(ascii: "o"): _ = try terminated(Int(try fixed(UInt32.self)))
        case UInt8(ascii: "g"): _ = try signatureText()
        case UInt8(ascii: "v"):
            var inner = Types(text: try signatureText(), index: 0)
            try skip(&inner, depth: depth + 1)
            guard inner.isAtEnd else { throw Self.malformed("a variant holding more than one value") }
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            try align(8)
            let close = code == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            while try types.peek() != close { try skip(&types, depth: depth + 1) }
            types.index += 1
        case UInt8(ascii: "a"):
            offset = try arrayHeader(&types).end
        case UInt8(ascii: "h"):
            // As `value(_:depth:)`: a message carrying one is not for this layer.
            throw MarshallingError(reason: "values of type 'h' are not supported")
        default:
            throw Self.malformed("the type code '\(Character(UnicodeScalar(code)))'")
        }
    }
}
