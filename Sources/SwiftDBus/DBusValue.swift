/// One D-Bus value of any type, carrying enough to know its signature — even an empty array.
///
/// Values from other processes arrive as `DBusValue`s; reading one as the wrong type gives a
/// ``DBusValue/TypeMismatch`` error the caller can inspect, never a crash.
///
/// Values are built by hand, or read out of a message by ``BodyReader/value()``; they are written
/// by the one writer (``ArgumentWriter/append(_:)``).
///
/// Only the variant and the dictionary are stored out of line, so that every string, integer and
/// dictionary key is not a heap box of its own; arrays and structs hold their elements in an
/// array already.
public enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    /// An array whose elements all have the signature `element` (kept so empty arrays have a type).
    case array(element: Signature, [DBusValue])
    /// A dictionary (`a{kv}`): ordered entries, keys of a basic type.
    indirect case dictionary(key: Signature, value: Signature, [DictionaryEntry])
    case structure([DBusValue])
    indirect case variant(DBusValue)

    /// One key/value pair of a ``DBusValue/dictionary(key:value:_:)``.
    public struct DictionaryEntry: Sendable, Hashable {
        public var key: DBusValue
        public var value: DBusValue
        public init(key: DBusValue, value: DBusValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value's complete D-Bus type signature.
    public var signature: Signature {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .array(let element, _): .array(of: element)
        case .dictionary(let key, let value, _): .dictionary(key, value)
        case .structure(let fields): Signature(validated: "(" + fields.map(\.signature.rawValue).joined() + ")")
        case .variant: .variant
        }
    }

    /// `true` for the types that may be dictionary keys.
    public var isBasic: Bool {
        switch self {
        case .array, .dictionary, .structure, .variant: false
        default: true
        }
    }
}

extension DBusValue {
    /// A string-keyed dictionary of variants (`a{sv}`), entries in key order so output is stable.
    public static func vardict(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(
            key: .string, value: .variant,
            entries.sorted { $0.key < $1.key }.map { DictionaryEntry(key: .string($0.key), value: .variant($0.value)) })
    }

    /// An array of strings (`as`).
    public static func strings(_ items: [String]) -> DBusValue {
        .array(element: .string, items.map(DBusValue.string))
    }

    /// An array of `element`-typed values, checking nothing: marshalling rejects mismatches.
    public static func array(_ items: [DBusValue], of element: Signature) -> DBusValue {
        .array(element: element, items)
    }
}
