extension DBusValue {
    /// A value was not of the type the reader asked for.
    public struct TypeMismatch: Error, Sendable, Hashable, CustomStringConvertible {
        /// What the reader wanted, in words ("a string", "an integer in 1…1000").
        public var expected: String
        /// The signature of what was there.
        public var found: Signature
        public var description: String { "expected \(expected), found a value of type '\(found)'" }
    }

    /// The value inside any number of variant wrappers.
    public var unwrapped: DBusValue {
        var value = self
        while case .variant(let inner) = value { value = inner }
        return value
    }

    @usableFromInline
    func mismatch(_ expected: String) -> TypeMismatch {
        TypeMismatch(expected: expected, found: unwrapped.signature)
    }

    /// The string of an `s`, `o` or `g` value (variants unwrapped).
    public func string() throws(TypeMismatch) -> String {
        switch unwrapped {
        case .string(let s): return s
        case .objectPath(let p): return p.rawValue
        case .signature(let g): return g.rawValue
        default: throw mismatch("a string")
        }
    }

    public func boolean() throws(TypeMismatch) -> Bool {
        guard case .boolean(let b) = unwrapped else { throw mismatch("a boolean") }
        return b
    }

    /// Any D-Bus integer type whose value fits `T` — the contract's "be liberal with clients":
    /// python3-dbus sends `i`, gdbus callers write `<uint32 50>`, both mean the same number.
    ///
    /// Inlinable so that a caller in another module gets it specialised for its `T` rather than
    /// asking the runtime for `Optional<T>`'s metadata on each call.
    @inlinable
    public func integer<T: FixedWidthInteger>(as type: T.Type = T.self) throws(TypeMismatch) -> T {
        let result: T?
        switch unwrapped {
        case .byte(let v): result = T(exactly: v)
        case .int16(let v): result = T(exactly: v)
        case .uint16(let v): result = T(exactly: v)
        case .int32(let v): result = T(exactly: v)
        case .uint32(let v): result = T(exactly: v)
        case .int64(let v): result = T(exactly: v)
        case .uint64(let v): result = T(exactly: v)
        default: throw mismatch("an integer")
        }
        guard let result else { throw mismatch("an integer in \(T.min)…\(T.max)") }
        return result
    }

    public func double() throws(TypeMismatch) -> Double {
        guard case .double(let d) = unwrapped else { throw mismatch("a double") }
        return d
    }

    /// The elements of an array (of any element type).
    public func array() throws(TypeMismatch) -> [DBusValue] {
        guard case .array(_, let items) = unwrapped else { throw mismatch("an array") }
        return items
    }

    /// The strings of an `as` (or of an array of variants holding strings).
    public func strings() throws(TypeMismatch) -> [String] {
        var result: [String] = []
        for item in try array() { result.append(try item.string()) }
        return result
    }

    /// The fields of a struct.
    public func structure() throws(TypeMismatch) -> [DBusValue] {
        guard case .structure(let fields) = unwrapped else { throw mismatch("a struct") }
        return fields
    }

    /// The entries of a dictionary, in the order they were sent.
    public func dictionaryEntries() throws(TypeMismatch) -> [DictionaryEntry] {
        guard case .dictionary(_, _, let entries) = unwrapped else { throw mismatch("a dictionary") }
        return entries
    }

    /// An `a{sv}` as a Swift dictionary, variant wrappers removed from the values. A key sent
    /// twice keeps its last value, as GLib and python-dbus do.
    public func vardict() throws(TypeMismatch) -> [String: DBusValue] {
        guard case .dictionary(let key, _, let entries) = unwrapped, key == .string || key == .objectPath
        else { throw mismatch("a dictionary with string keys (a{sv})") }
        var result: [String: DBusValue] = [:]
        result.reserveCapacity(entries.count)
        for entry in entries {
            guard let name = try? entry.key.string() else { continue }
            if case .variant(let inner) = entry.value { result[name] = inner } else { result[name] = entry.value }
        }
        return result
    }

    /// Reads the value with the reader a received message is read with (``BodyReader``), as a peer
    /// would read it once sent: written by the one writer, then handed to `read` as an argument.
    /// So a decoder written for bodies takes a value built in Swift the same way, not by a twin.
    /// Throws for a value no message can carry (``Marshalling/check(_:)``).
    public func read(_ read: (inout ValueReader) throws(MarshallingError) -> Void) throws(MarshallingError) {
        try MessageBody([self]).read { reader throws(MarshallingError) in try reader.argument(read) }
    }
}
