internal import CDBus

/// A D-Bus type signature such as `a{sv}`: zero or more complete types.
///
/// The corresponding libdbus calls are `dbus_signature_validate` and
/// `dbus_signature_validate_single`.
public struct Signature: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ text: String) throws(InvalidNameError) {
        guard Self.isValid(text) else { throw InvalidNameError(kind: "signature", text: text) }
        rawValue = text
    }

    public init(stringLiteral text: String) {
        precondition(Self.isValid(text), "invalid signature literal '\(text)'")
        rawValue = text
    }

    /// Only for text that is valid by construction (built from valid parts, or read from libdbus).
    init(validated text: String) { rawValue = text }

    public var description: String { rawValue }

    /// `true` when the signature holds exactly one complete type (what an array element or a
    /// variant's content must be).
    public var isSingleCompleteType: Bool {
        rawValue.withCString { dbus_signature_validate_single($0, nil) } != 0
    }

    /// The complete types this signature is made of: `"sa{sv}"` → `["s", "a{sv}"]`.
    public var completeTypes: [Signature] {
        var result: [Signature] = []
        var iterator = DBusSignatureIter()
        guard !rawValue.isEmpty else { return [] }
        rawValue.withCString { base in
            dbus_signature_iter_init(&iterator, base)
            repeat {
                if let sig = dbus_signature_iter_get_signature(&iterator) {
                    result.append(Signature(validated: String(cString: sig)))
                    dbus_free(sig)
                }
            } while dbus_signature_iter_next(&iterator) != 0
        }
        return result
    }

    /// The boundary a value aligns to on the wire, from the first code of its type.
    static func alignment(of code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "s"), UInt8(ascii: "o"),
             UInt8(ascii: "a"), UInt8(ascii: "h"): 4
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 1
        }
    }

    private static func isValid(_ text: String) -> Bool {
        !text.utf8.contains(0) && text.withCString { dbus_signature_validate($0, nil) } != 0
    }

    public static let empty = Signature(validated: "")
    public static let byte = Signature(validated: "y")
    public static let boolean = Signature(validated: "b")
    public static let int16 = Signature(validated: "n")
    public static let uint16 = Signature(validated: "q")
    public static let int32 = Signature(validated: "i")
    public static let uint32 = Signature(validated: "u")
    public static let int64 = Signature(validated: "x")
    public static let uint64 = Signature(validated: "t")
    public static let double = Signature(validated: "d")
    public static let string = Signature(validated: "s")
    public static let objectPath = Signature(validated: "o")
    public static let signature = Signature(validated: "g")
    public static let variant = Signature(validated: "v")
    /// `a{sv}`, the "vardict" of string keys and variant values that most D-Bus APIs use.
    public static let vardict = Signature(validated: "a{sv}")

    /// The signature of an array of `element`.
    public static func array(of element: Signature) -> Signature { Signature(validated: "a" + element.rawValue) }
    /// The signature of a dictionary from `key` (a basic type) to `value`.
    public static func dictionary(_ key: Signature, _ value: Signature) -> Signature {
        Signature(validated: "a{" + key.rawValue + value.rawValue + "}")
    }
    /// The signature of a sequence of complete types (a message body, or a struct's fields).
    public static func sequence(_ parts: [Signature]) -> Signature {
        Signature(validated: parts.map(\.rawValue).joined())
    }
}
