/// A D-Bus error: a name and a human message. Error replies from peers arrive as `BusError`s,
/// and method handlers answer with them.
///
/// Names from other processes can be anything, so this is an open struct with well-known names
/// as static members, never a closed enum.
public struct BusError: Error, Sendable, Hashable, CustomStringConvertible {
    public var name: ErrorName
    public var message: String

    public init(_ name: ErrorName, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name.rawValue : "\(name.rawValue): \(message)" }

    /// The contract's answer to a malformed argument: `org.freedesktop.DBus.Error.InvalidArgs`.
    public static func invalidArgs(_ message: String) -> BusError { BusError(.invalidArgs, message) }
    public static func failed(_ message: String) -> BusError { BusError(.failed, message) }
}

extension ErrorName {
    public static let failed: ErrorName = "org.freedesktop.DBus.Error.Failed"
    public static let noMemory: ErrorName = "org.freedesktop.DBus.Error.NoMemory"
    public static let serviceUnknown: ErrorName = "org.freedesktop.DBus.Error.ServiceUnknown"
    public static let nameHasNoOwner: ErrorName = "org.freedesktop.DBus.Error.NameHasNoOwner"
    public static let noReply: ErrorName = "org.freedesktop.DBus.Error.NoReply"
    public static let timeout: ErrorName = "org.freedesktop.DBus.Error.Timeout"
    public static let disconnected: ErrorName = "org.freedesktop.DBus.Error.Disconnected"
    public static let invalidArgs: ErrorName = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let invalidSignature: ErrorName = "org.freedesktop.DBus.Error.InvalidSignature"
    public static let unknownMethod: ErrorName = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownObject: ErrorName = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownInterface: ErrorName = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownProperty: ErrorName = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let propertyReadOnly: ErrorName = "org.freedesktop.DBus.Error.PropertyReadOnly"
    public static let accessDenied: ErrorName = "org.freedesktop.DBus.Error.AccessDenied"
    public static let limitsExceeded: ErrorName = "org.freedesktop.DBus.Error.LimitsExceeded"
    public static let notSupported: ErrorName = "org.freedesktop.DBus.Error.NotSupported"
}
