/// A position in a body in the D-Bus wire format (the specification's "Marshaling (Wire
/// Format)"), and the reads ``BodyReader`` is made of: basic values, whole values as
/// ``DBusValue``s, and values stepped over.
///
/// Offsets count from the start of the body, which the format aligns to 8 bytes, so padding works
/// out the same as in the whole message. Every read is checked against the end of the body and the
/// signature, and nesting is bounded like ``Marshalling/maximumDepth``: the reader relies on
/// libdbus's validation for the values' meaning, never for memory safety. Decoding is bounded by
/// the caller's ``ArgumentLimits`` too: an array of more elements, or a value nested deeper, throws
/// before it is built. Strings are read by ``WireText``'s rule.
struct WireCursor {
    private let body: UnsafeRawBufferPointer
    private let isBigEndian: Bool
    /// The most elements of one array, and the deepest nesting, that decoding builds.
    private let maximumElements: Int
    private let maximumDepth: Int
    var offset = 0

    init(_ body: UnsafeRawBufferPointer, isBigEndian: Bool, limits: ArgumentLimits = .dbus) {
        self.body = body
        self.isBigEndian = isBigEndian
        maximumElements = limits.elements
        maximumDepth = min(limits.depth, Marshalling.maximumDepth)
    }

    static func malformed(_ what: String) -> MarshallingError {
        MarshallingError(reason: "malformed message body: \(what)")
    }

    /// A position in a signature: the message's own, or a variant's (which lies in the body).
    struct Types {
        let text: UnsafeRawBufferPointer
        var index: Int

        var isAtEnd: Bool { index >= text.count }

        func peek() throws(MarshallingError) -> UInt8 {
            guard index < text.count else { throw WireCursor.malformed("the signature ends inside a type") }
            return text[index]
        }

        mutating func next() throws(MarshallingError) -> UInt8 {
            let code = try peek()
            index += 1
            return code
        }

        /// Moves past one complete type and returns its text.
        mutating func skipCompleteType() throws(MarshallingError) -> UnsafeRawBufferPointer {
            let start = index
            var open = 0
            while true {
                switch try next() {
                case UInt8(ascii: "a"): continue  // an array's element type follows
                case UInt8(ascii: "("), UInt8(ascii: "{"): open += 1
                case UInt8(ascii: ")"), UInt8(ascii: "}"):
                    open -= 1
                    guard open >= 0 else { throw WireCursor.malformed("unbalanced brackets in the signature") }
                default: break
                }
                if open == 0 { return UnsafeRawBufferPointer(rebasing: text[start..<index]) }
            }
        }
    }

    // MARK: Basic values

    mutating func align(_ boundary: Int) throws(MarshallingError) {
        let aligned = (offset + boundary - 1) & ~(boundary - 1)
        guard aligned <= body.count else { throw Self.malformed("padding runs past the end") }
        offset = aligned
    }

    mutating func fixed<T: FixedWidthInteger>(_: T.Type) throws(MarshallingError) -> T {
        let size = MemoryLayout<T>.size
        try align(size)
        guard size <= body.count - offset else { throw Self.malformed("a \(size)-byte value runs past the end") }
        let raw = body.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += size
        return isBigEndian ? T(bigEndian: raw) : T(littleEndian: raw)
    }

    /// `count` bytes followed by the NUL that ends every string and signature.
    mutating func terminated(_ count: Int) throws(MarshallingError) -> UnsafeRawBufferPointer {
        guard count < body.count - offset, body[offset + count] == 0 else { throw Self.malformed("a string without its NUL") }
        defer { offset += count + 1 }
        return UnsafeRawBufferPointer(rebasing: body[offset..<offset + count])
    }

    private mutating func string() throws(MarshallingError) -> String {
        WireText.string(try terminated(Int(try fixed(UInt32.self))))
    }

    /// A signature's text (`g`, and the type of a variant's content): a one-byte length.
    mutating func signatureText() throws(MarshallingError) -> UnsafeRawBufferPointer {
        try terminated(Int(try fixed(UInt8.self)))
    }

    // MARK: Values

    mutating func value(_ types: inout Types, depth: Int) throws(MarshallingError) -> DBusValue {
        guard depth <= maximumDepth else { throw MarshallingError(reason: "values nested more than \(maximumDepth) deep") }
        let code = try types.next()
        switch code {
        case UInt8(ascii: "y"): return .byte(try fixed(UInt8.self))
        case UInt8(ascii: "b"):
            switch try fixed(UInt32.self) {
            case 0: return .boolean(false)
            case 1: return .boolean(true)
            default: throw Self.malformed("a boolean other than 0 or 1")
            }
        case UInt8(ascii: "n"): return .int16(Int16(bitPattern: try fixed(UInt16.self)))
        case UInt8(ascii: "q"): return .uint16(try fixed(UInt16.self))
        case UInt8(ascii: "i"): return .int32(Int32(bitPattern: try fixed(UInt32.self)))
        case UInt8(ascii: "u"): return .uint32(try fixed(UInt32.self))
        case UInt8(ascii: "x"): return .int64(Int64(bitPattern: try fixed(UInt64.self)))
        case UInt8(ascii: "t"): return .uint64(try fixed(UInt64.self))
        case UInt8(ascii: "d"): return .double(Double(bitPattern: try fixed(UInt64.self)))
        case UInt8(ascii: "s"): return .string(try string())
        case UInt8(ascii: "o"): return .objectPath(ObjectPath(validated: try string()))
        case UInt8(ascii: "g"): return .signature(Signature(validated: String(decoding: try signatureText(), as: UTF8.self)))
        case UInt8(ascii: "v"):
            var inner = Types(text: try signatureText(), index: 0)
            let content = try value(&inner, depth: depth + 1)
            guard inner.isAtEnd else { throw Self.malformed("a variant holding more than one value") }
            return .variant(content)
        case UInt8(ascii: "("):
            try align(8)
            var fields: [DBusValue] = []
            while try types.peek() != UInt8(ascii: ")") {
                fields.append(try value(&types, depth: depth + 1))
            }
            types.index += 1
            guard !fields.isEmpty else { throw Self.malformed("an empty struct") }
            return .structure(fields)
        case UInt8(ascii: "a"):
            return try array(&types, depth: depth)
        case UInt8(ascii: "h"):
            throw MarshallingError(reason: "values of type 'h' are not supported")
        default:
            throw Self.malformed("the type code '\(Character(UnicodeScalar(code)))'")
        }
    }

    /// An array's length, element type and padding, read with `types` just past its `a`: the
    /// element type's text and the offset where the elements end. The padding before the first
    /// element is there even when there is none; the length counts from after it.
    mutating func arrayHeader(_ types: inout Types) throws(MarshallingError) -> (element: UnsafeRawBufferPointer, end: Int) {
        let length = Int(try fixed(UInt32.self))
        let element = try types.skipCompleteType()
        try align(Signature.alignment(of: element[0]))
        guard length <= body.count - offset else { throw Self.malformed("an array runs past the end") }
        return (element, offset + length)
    }

    /// An array (`a…`) or a dictionary (`a{…}`); `types` is just past the `a`.
    private mutating func array(_ types: inout Types, depth: Int) throws(MarshallingError) -> DBusValue {
        let (element, end) = try arrayHeader(&types)
        let length = end - offset
        defer { offset = end }

        guard element[0] == UInt8(ascii: "{") else {
            var items: [DBusValue] = []
            items.reserveCapacity(Self.likelyCount(length: length, smallestItem: 8))
            while offset < end {
                guard items.count < maximumElements else { throw tooManyElements }
                var itemTypes = Types(text: element, index: 0)
                items.append(try value(&itemTypes, depth: depth + 1))
            }
            guard offset == end else { throw Self.malformed("an array element runs past the array") }
            return .array(element: Self.signature(element), items)
        }
        // `{kv}`: k is one basic type code, v one complete type.
        guard element.count >= 4 else { throw Self.malformed("a dictionary entry type without key and value") }
        let key = UnsafeRawBufferPointer(rebasing: element[1..<2])
        let valueType = UnsafeRawBufferPointer(rebasing: element[2..<(element.count - 1)])
        var entries: [DBusValue.DictionaryEntry] = []
        entries.reserveCapacity(Self.likelyCount(length: length, smallestItem: 16))
        while offset < end {
            guard entries.count < maximumElements else { throw tooManyElements }
            try align(8)
            var keyTypes = Types(text: key, index: 0)
            var valueTypes = Types(text: valueType, index: 0)
            let k = try value(&keyTypes, depth: depth + 2)
            let v = try value(&valueTypes, depth: depth + 2)
            guard valueTypes.isAtEnd else { throw Self.malformed("a dictionary value of more than one type") }
            entries.append(.init(key: k, value: v))
        }
        guard offset == end else { throw Self.malformed("a dictionary entry runs past the array") }
        return .dictionary(key: Self.signature(key), value: Self.signature(valueType), entries)
    }

    private var tooManyElements: MarshallingError {
        MarshallingError(reason: "an array of more than \(maximumElements) elements")
    }

    /// Room for an array's items, reserved up front so that a small array is not reallocated as it
    /// grows. Bounded by the most items `length` bytes can hold, and by 16 so that a large array
    /// (grown as usual past it) reserves no more than a small one needs. Entries are 8-aligned, so
    /// 16 bytes is the least a dictionary entry with a string key takes; an array item's least is
    /// taken as 8 (a string or an aligned integer).
    private static func likelyCount(length: Int, smallestItem: Int) -> Int {
        min(16, (length + smallestItem - 1) / smallestItem)
    }

    /// The ``Signature`` for a type's text, sharing the common ones rather than making a string each time.
    private static func signature(_ text: UnsafeRawBufferPointer) -> Signature {
        if text.count == 1 {
            switch text[0] {
            case UInt8(ascii: "s"): return .string
            case UInt8(ascii: "v"): return .variant
            case UInt8(ascii: "o"): return .objectPath
            case UInt8(ascii: "y"): return .byte
            default: break
            }
        }
        return Signature(validated: String(decoding: text, as: UTF8.self))
    }

    /// Steps over one complete value of the type at `types`, checking it against the end of the
    /// body but making nothing of it.
    mutating func skip(_ types: inout Types, depth: Int) throws(MarshallingError) {
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
