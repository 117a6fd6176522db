internal import CDBus

/// Runs one of libdbus's `dbus_validate_*` functions over `text`.
///
/// The validators take a `DBusError*` that we do not need: a `false` answer is all we use, and
/// the error message is the same fixed sentence libdbus would print.
private func isValid(_ text: String, _ validator: (UnsafePointer<CChar>?, UnsafeMutablePointer<DBusError>?) -> dbus_bool_t) -> Bool {
    // A Swift string may hold NUL, which C would silently cut: such a name is never valid.
    guard !text.utf8.contains(0) else { return false }
    return text.withCString { validator($0, nil) } != 0
}

/// A name was not valid for its kind (bus name, object path, interface, member or error name).
public struct InvalidNameError: Error, Sendable, Hashable, CustomStringConvertible {
    public var kind: String
    public var text: String
    public var description: String { "'\(text)' is not a valid D-Bus \(kind)" }
}

/// A bus name: a unique connection name (`:1.42`) or a well-known name (`org.mpris.MediaPlayer2.mpv`).
///
/// The corresponding libdbus call is `dbus_validate_bus_name`.
public struct BusName: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ text: String) throws(InvalidNameError) {
        guard isValid(text, dbus_validate_bus_name) else { throw InvalidNameError(kind: "bus name", text: text) }
        rawValue = text
    }

    /// For names written in source code; an invalid literal is a programming error.
    public init(stringLiteral text: String) {
        precondition(isValid(text, dbus_validate_bus_name), "invalid bus name literal '\(text)'")
        rawValue = text
    }

    /// Unique names (`:1.42`) are assigned by the bus; well-known names are requested.
    public var isUnique: Bool { rawValue.utf8.first == UInt8(ascii: ":") }
    public var description: String { rawValue }
    public static func < (a: BusName, b: BusName) -> Bool { a.rawValue < b.rawValue }
}

/// An object path such as `/org/mpris/MediaPlayer2`.
///
/// The corresponding libdbus call is `dbus_validate_path`.
public struct ObjectPath: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ text: String) throws(InvalidNameError) {
        guard isValid(text, dbus_validate_path) else { throw InvalidNameError(kind: "object path", text: text) }
        rawValue = text
    }

    public init(stringLiteral text: String) {
        precondition(isValid(text, dbus_validate_path), "invalid object path literal '\(text)'")
        rawValue = text
    }

    /// Only for text libdbus has already validated (read out of a message).
    init(validated text: String) { rawValue = text }

    public static let root = ObjectPath(validated: "/")
    public var description: String { rawValue }
    public static func < (a: ObjectPath, b: ObjectPath) -> Bool { a.rawValue < b.rawValue }

    /// The path's elements: `/a/b` → `["a", "b"]`; the root has none.
    public var components: [Substring] { rawValue.split(separator: "/") }
}

/// An interface name such as `org.freedesktop.DBus.Properties`.
///
/// The corresponding libdbus call is `dbus_validate_interface`.
public struct InterfaceName: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ text: String) throws(InvalidNameError) {
        guard isValid(text, dbus_validate_interface) else { throw InvalidNameError(kind: "interface name", text: text) }
        rawValue = text
    }

    public init(stringLiteral text: String) {
        precondition(isValid(text, dbus_validate_interface), "invalid interface literal '\(text)'")
        rawValue = text
    }

    init(validated text: String) { rawValue = text }

    public var description: String { rawValue }
    public static func < (a: InterfaceName, b: InterfaceName) -> Bool { a.rawValue < b.rawValue }

    public static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    public static let introspectable: InterfaceName = "org.freedesktop.DBus.Introspectable"
    public static let peer: InterfaceName = "org.freedesktop.DBus.Peer"
    public static let bus: InterfaceName = "org.freedesktop.DBus"
}

/// A method or signal name such as `PropertiesChanged`.
///
/// The corresponding libdbus call is `dbus_validate_member`.
public struct MemberName: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ text: String) throws(InvalidNameError) {
        guard isValid(text, dbus_validate_member) else { throw InvalidNameError(kind: "member name", text: text) }
        rawValue = text
    }

    public init(stringLiteral text: String) {
        precondition(isValid(text, dbus_validate_member), "invalid member literal '\(text)'")
        rawValue = text
    }

    init(validated text: String) { rawValue = text }

    public var description: String { rawValue }
    public static func < (a: MemberName, b: MemberName) -> Bool { a.rawValue < b.rawValue }
}

/// An error name such as `org.freedesktop.DBus.Error.InvalidArgs`.
///
/// The corresponding libdbus call is `dbus_validate_error_name`.
public struct ErrorName: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ text: String) throws(InvalidNameError) {
        guard isValid(text, dbus_validate_error_name) else { throw InvalidNameError(kind: "error name", text: text) }
        rawValue = text
    }

    public init(stringLiteral text: String) {
        precondition(isValid(text, dbus_validate_error_name), "invalid error name literal '\(text)'")
        rawValue = text
    }

    init(validated text: String) { rawValue = text }

    public var description: String { rawValue }
}
