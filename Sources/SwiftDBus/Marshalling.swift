internal import CDBus

/// A value that cannot be put into a message: a string holding NUL, an array element of the
/// wrong type, nesting deeper than D-Bus allows, or a type this layer does not carry (`h`).
public struct MarshallingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// Puts ``DBusValue``s into libdbus messages through `DBusMessageIter`; reading goes through
/// ``MessageBody``.
///
/// Values are checked completely before the first byte is appended, so a bad value never leaves
/// a half-built message behind.
enum Marshalling {
    /// D-Bus allows 32 levels of arrays plus 32 of structs; 64 in all bounds variants too.
    static let maximumDepth = 64

    static func check(_ values: [DBusValue]) throws(MarshallingError) {
        for value in values { try check(value, depth: 0) }
        let whole = Signature.sequence(values.map(\.signature))
        guard whole.rawValue.withCString({ dbus_signature_validate($0, nil) }) != 0 else {
            throw MarshallingError(reason: "the values' signature '\(whole)' is not valid (nested too deeply?)")
        }
    }

    private static func check(_ value: DBusValue, depth: Int) throws(MarshallingError) {
        guard depth <= maximumDepth else { throw MarshallingError(reason: "values nested more than \(maximumDepth) deep") }
        switch value {
        case .string(let s):
            if containsNUL(s) { throw MarshallingError(reason: "a D-Bus string cannot contain NUL") }
        case .array(let element, let items):
            guard isSingleCompleteType(element) else {
                throw MarshallingError(reason: "array element signature '\(element)' is not one complete type")
            }
            for item in items {
                guard has(item, signature: element) else {
                    throw MarshallingError(reason: "array of '\(element)' holds a '\(item.signature)'")
                }
                try check(item, depth: depth + 1)
            }
        case .dictionary(let key, let valueType, let entries):
            guard key.rawValue.utf8.count == 1, key.rawValue != "v", isSingleCompleteType(valueType) else {
                throw MarshallingError(reason: "dictionary key '\(key)' must be a basic type and '\(valueType)' one complete type")
            }
            for entry in entries {
                guard has(entry.key, signature: key), has(entry.value, signature: valueType) else {
                    throw MarshallingError(reason: "dictionary a{\(key)\(valueType)} holds an entry {\(entry.key.signature)\(entry.value.signature)}")
                }
                try check(entry.key, depth: depth + 2)
                try check(entry.value, depth: depth + 2)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw MarshallingError(reason: "a struct needs at least one field") }
            for field in fields { try check(field, depth: depth + 1) }
        case .variant(let inner):
            // The outer signature says only `v`: the content's own signature must be valid too, or
            // libdbus's `open_container` fails a check and aborts the process (found by Fuzz/run:
            // a variant holding structs nested 40 deep, over libdbus's limit of 32).
            guard isSingleCompleteType(inner) else {
                throw MarshallingError(reason: "a variant's content has the invalid signature '\(inner.signature)' (nested too deeply?)")
            }
            try check(inner, depth: depth + 1)
        default:
            break
        }
    }

    // MARK: Checking without building signatures
    //
    // Every `MediaAdded` and every asset of a `RecentMedia` page passes through `check`. Building
    // each value's signature as a string, and asking libdbus to validate it (which allocates), cost
    // more than appending the value (callgrind); the shapes those messages use are told apart here
    // from the values themselves, and only the rest goes to libdbus.

    private static func containsNUL(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? text.utf8.contains(0)
    }

    /// A basic type code, or `v`: one character that is a single complete type by itself.
    private static func isOneCharacterType(_ code: UInt8) -> Bool {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "b"), UInt8(ascii: "n"), UInt8(ascii: "q"), UInt8(ascii: "i"),
             UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "s"),
             UInt8(ascii: "o"), UInt8(ascii: "g"), UInt8(ascii: "v"):
            return true
        default:
            return false
        }
    }

    private static func isSingleCompleteType(_ signature: Signature) -> Bool {
        let utf8 = signature.rawValue.utf8
        if utf8.count == 1, let code = utf8.first, isOneCharacterType(code) { return true }
        if signature == .vardict { return true }
        return signature.isSingleCompleteType
    }

    /// Whether the signature of `value` is single and complete; a scalar's always is, and so is an
    /// array's whose element is a one-character type.
    private static func isSingleCompleteType(_ value: DBusValue) -> Bool {
        switch value {
        case .array(let element, _):
            let utf8 = element.rawValue.utf8
            if utf8.count == 1, let code = utf8.first, isOneCharacterType(code) { return true }
            return value.signature.isSingleCompleteType
        case .dictionary, .structure:
            return value.signature.isSingleCompleteType
        default:
            return true
        }
    }

    /// `value.signature == expected`, without building the signature of an array or dictionary.
    private static func has(_ value: DBusValue, signature expected: Signature) -> Bool {
        let wanted = expected.rawValue.utf8
        switch value {
        case .array(let element, _):
            let inner = element.rawValue.utf8
            return wanted.count == inner.count + 1 && wanted.first == UInt8(ascii: "a")
                && wanted.dropFirst().elementsEqual(inner)
        case .dictionary(let key, let valueType, _):
            let k = key.rawValue.utf8, v = valueType.rawValue.utf8
            guard wanted.count == k.count + v.count + 3, wanted.starts(with: "a{".utf8),
                  wanted.last == UInt8(ascii: "}") else { return false }
            let middle = wanted.dropFirst(2).dropLast()
            return middle.prefix(k.count).elementsEqual(k) && middle.dropFirst(k.count).elementsEqual(v)
        case .structure:
            return value.signature == expected
        default:
            // A scalar's signature is a constant: comparing it builds nothing.
            return value.signature == expected
        }
    }

    /// Appends already-checked values to `message`.
    ///
    /// The corresponding libdbus calls are `dbus_message_iter_init_append`,
    /// `dbus_message_iter_append_basic` and `dbus_message_iter_open_container`/`close_container`.
    /// They fail only when memory runs out.
    static func append(_ values: [DBusValue], to message: OpaquePointer) -> Bool {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for value in values where !append(value, to: &iterator) { return false }
        return true
    }

    private static func appendBasic<T: BitwiseCopyable>(_ value: T, type: Int32, to iterator: inout DBusMessageIter) -> Bool {
        var copy = value
        return withUnsafeMutablePointer(to: &copy) { dbus_message_iter_append_basic(&iterator, type, $0) } != 0
    }

    private static func appendText(_ text: String, type: Int32, to iterator: inout DBusMessageIter) -> Bool {
        text.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iterator, type, &p) != 0
        }
    }

    private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(let v): return appendBasic(v, type: cdbus_type_byte, to: &iterator)
        case .boolean(let v): return appendBasic(dbus_bool_t(v ? 1 : 0), type: cdbus_type_boolean, to: &iterator)
        case .int16(let v): return appendBasic(v, type: cdbus_type_int16, to: &iterator)
        case .uint16(let v): return appendBasic(v, type: cdbus_type_uint16, to: &iterator)
        case .int32(let v): return appendBasic(v, type: cdbus_type_int32, to: &iterator)
        case .uint32(let v): return appendBasic(v, type: cdbus_type_uint32, to: &iterator)
        case .int64(let v): return appendBasic(v, type: cdbus_type_int64, to: &iterator)
        case .uint64(let v): return appendBasic(v, type: cdbus_type_uint64, to: &iterator)
        case .double(let v): return appendBasic(v, type: cdbus_type_double, to: &iterator)
        case .string(let v): return appendText(v, type: cdbus_type_string, to: &iterator)
        case .objectPath(let v): return appendText(v.rawValue, type: cdbus_type_object_path, to: &iterator)
        case .signature(let v): return appendText(v.rawValue, type: cdbus_type_signature, to: &iterator)
        case .array(let element, let items):
            return withContainer(cdbus_type_array, signature: element.rawValue, in: &iterator) { sub in
                for item in items where !append(item, to: &sub) { return false }
                return true
            }
        case .dictionary(let key, let valueType, let entries):
            return withContainer(cdbus_type_array, signature: "{" + key.rawValue + valueType.rawValue + "}", in: &iterator) { sub in
                for entry in entries {
                    let ok = withContainer(cdbus_type_dict_entry, signature: nil, in: &sub) { pair in
                        append(entry.key, to: &pair) && append(entry.value, to: &pair)
                    }
                    if !ok { return false }
                }
                return true
            }
        case .structure(let fields):
            return withContainer(cdbus_type_struct, signature: nil, in: &iterator) { sub in
                for field in fields where !append(field, to: &sub) { return false }
                return true
            }
        case .variant(let inner):
            return withContainer(cdbus_type_variant, signature: inner.signature.rawValue, in: &iterator) { sub in
                append(inner, to: &sub)
            }
        }
    }

    private static func withContainer(
        _ type: Int32, signature: String?, in iterator: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var sub = DBusMessageIter()
        let opened: Bool
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iterator, type, $0, &sub) } != 0
        } else {
            opened = dbus_message_iter_open_container(&iterator, type, nil, &sub) != 0
        }
        guard opened else { return false }
        guard body(&sub) else {
            dbus_message_iter_abandon_container(&iterator, &sub)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &sub) != 0
    }

    // MARK: Reading

    /// Reads every argument of `message`: its body, copied out of libdbus and decoded by
    /// ``WireReader`` (see ``MessageBody``).
    static func read(_ message: OpaquePointer) throws(MarshallingError) -> [DBusValue] {
        let signature = dbus_message_get_signature(message).map { String(cString: $0) } ?? ""
        return try MessageBody(of: message, signature: Signature(validated: signature)).values()
    }
}
