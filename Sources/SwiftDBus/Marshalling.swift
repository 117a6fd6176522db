internal import CDBus

/// A value that cannot be put into a message (an array element of the wrong type, nesting deeper
/// than D-Bus allows, a type this layer does not carry), or a body that cannot be read.
public struct MarshallingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// What a message may carry: the check every ``DBusValue`` passes before ``WireWriter`` writes it,
/// so that a bad value is refused where it was given (`InvalidArgs`, or `Failed` for a reply)
/// rather than making a message libdbus refuses. Text is never a reason: strings follow
/// ``WireText``.
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
        case .array(let element, let items):
            guard element.isSingleCompleteType else {
                throw MarshallingError(reason: "array element signature '\(element)' is not one complete type")
            }
            for item in items {
                guard item.signature == element else {
                    throw MarshallingError(reason: "array of '\(element)' holds a '\(item.signature)'")
                }
                try check(item, depth: depth + 1)
            }
        case .dictionary(let key, let valueType, let entries):
            // A signature of one character is a basic type or `v`.
            guard key.rawValue.utf8.count == 1, key != .variant, valueType.isSingleCompleteType else {
                throw MarshallingError(reason: "dictionary key '\(key)' must be a basic type and '\(valueType)' one complete type")
            }
            for entry in entries {
                guard entry.key.signature == key, entry.value.signature == valueType else {
                    throw MarshallingError(reason: "dictionary a{\(key)\(valueType)} holds an entry {\(entry.key.signature)\(entry.value.signature)}")
                }
                try check(entry.key, depth: depth + 2)
                try check(entry.value, depth: depth + 2)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw MarshallingError(reason: "a struct needs at least one field") }
            for field in fields { try check(field, depth: depth + 1) }
        case .variant(let inner):
            // The outer signature says only `v`: the content's own must be valid too.
            guard inner.signature.isSingleCompleteType else {
                throw MarshallingError(reason: "a variant's content has the invalid signature '\(inner.signature)' (nested too deeply?)")
            }
            try check(inner, depth: depth + 1)
        default:
            break
        }
    }
}
