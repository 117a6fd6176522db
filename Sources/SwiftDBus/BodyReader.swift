#if canImport(Glibc)
import Glibc
#endif

/// The one reader of message bodies: it takes a body's arguments in order, where they lie,
/// decoding only what the caller asks for. The entries of a dictionary are visited in place, their
/// keys compared without becoming `String`s, and a value no one asks for is stepped over without
/// becoming a ``DBusValue``. A ``DBusValue`` tree is what ``value()`` reads, and all that
/// ``MessageBody/values()`` and ``BusMessage/arguments`` are.
///
/// Every read is bounds-checked (``WireCursor``); what is stepped over is checked against the
/// signature and the end of the body, not decoded. Strings follow ``WireText``: each NUL and each
/// ill-formed UTF-8 sequence reads as U+FFFD (libdbus lets neither through, but a body from
/// elsewhere reads by the same rule). A read that throws leaves the reader where it was, so a value
/// a caller fails to read (and catches) is then stepped over like any unread value. The reader, and
/// the keys and readers it hands out, point into the body: they are valid only inside the
/// ``MessageBody/read(_:)`` that made them.
public struct BodyReader: ~Copyable {
    fileprivate var wire: WireCursor
    fileprivate var types: WireCursor.Types

    init(wire: WireCursor, types: WireCursor.Types) {
        self.wire = wire
        self.types = types
    }

    /// Whether every argument has been read.
    public var isAtEnd: Bool { types.isAtEnd }

    /// The next argument, decoded whole. Throws when there is none.
    public mutating func value() throws(MarshallingError) -> DBusValue {
        try advancing { wire, types throws(MarshallingError) in try wire.value(&types, depth: 0) }
    }

    /// Hands `read` a reader of the next argument (see ``ValueReader``); an argument it does not
    /// read is stepped over. Throws when there is none.
    public mutating func argument(_ read: (inout ValueReader) throws(MarshallingError) -> Void) throws(MarshallingError) {
        try advancing { wire, types throws(MarshallingError) in
            try wire.visitValue(of: try types.skipCompleteType(), depth: 0, read)
        }
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
        _ read: (inout WireCursor, inout WireCursor.Types) throws(MarshallingError) -> T
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

    /// The key as a `String` (by ``WireText``'s rule).
    public var string: String { WireText.string(utf8) }
}

/// One value — an argument (``BodyReader/argument(_:)``), a dictionary entry's
/// (``BodyReader/entries(_:)``) or an array element (``BodyReader/elements(_:)``): read it, or
/// leave it to be stepped over. A read that throws counts as none: the value is then stepped over.
public struct ValueReader: ~Copyable {
    fileprivate var wire: WireCursor
    fileprivate let type: UnsafeRawBufferPointer
    fileprivate let depth: Int
    fileprivate var isRead = false

    /// The value decoded, one variant wrapper removed — as ``DBusValue/vardict()`` takes an
    /// `a{sv}`'s values. Reading it a second time throws.
    public mutating func value() throws(MarshallingError) -> DBusValue {
        try reading { wire, types, depth throws(MarshallingError) in
            guard types.text.count == 1, types.text[0] == UInt8(ascii: "v") else {
                let value = try wire.value(&types, depth: depth)
                guard types.isAtEnd else { throw WireCursor.malformed("a value of more than one type") }
                return value
            }
            // The variant's content, decoded where it lies rather than boxed and unwrapped.
            var inner = WireCursor.Types(text: try wire.signatureText(), index: 0)
            let content = try wire.value(&inner, depth: depth + 1)
            guard inner.isAtEnd else { throw WireCursor.malformed("a variant holding more than one value") }
            return content
        }
    }

    /// Visits the elements of the value, an array that is no dictionary (see
    /// ``BodyReader/elements(_:)``). Reading it a second time throws.
    public mutating func elements(_ visit: (inout ValueReader) throws(MarshallingError) -> Void) throws(MarshallingError) -> Bool {
        try reading { wire, types, depth throws(MarshallingError) in try wire.elements(&types, depth: depth, visit) }
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
        _ read: (inout WireCursor, inout WireCursor.Types, Int) throws(MarshallingError) -> T
    ) throws(MarshallingError) -> T {
        guard !isRead else { throw MarshallingError(reason: "a value read twice") }
        var moved = wire
        var types = WireCursor.Types(text: type, index: 0)
        let result = try read(&moved, &types, depth)
        wire = moved
        isRead = true
        return result
    }
}

extension WireCursor {
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
        _ read: (inout WireCursor, inout Types, Int) throws(MarshallingError) -> Bool
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
    fileprivate mutating func visitValue(
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
}
