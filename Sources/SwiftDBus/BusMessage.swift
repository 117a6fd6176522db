internal import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// A message received from the bus: its header read into Swift values, its body kept as the bytes
/// libdbus checked (``body``) and decoded into ``arguments``.
///
/// Replies and method calls arrive decoded, since whoever receives them needs the values. A
/// signal's body is decoded only when a handler asks: a handler can first compare ``body`` with the
/// last one it saw and drop an exact repeat (a player flooding the same `PropertiesChanged`) without
/// building a single value.
///
/// Reading happens on the connection's own thread, so a `BusMessage` holds no libdbus handle and can
/// travel anywhere.
public struct BusMessage: Sendable {
    public enum Kind: Sendable, Hashable {
        case methodCall, methodReturn, error, signal
    }

    public let kind: Kind
    public let serial: UInt32
    /// For replies and errors: the serial of the call they answer.
    public let replySerial: UInt32
    /// The sender's unique name (`:1.42`), as stamped by the bus — never a well-known name.
    public let sender: String?
    public let destination: String?
    public let path: ObjectPath?
    public let interface: InterfaceName?
    public let member: MemberName?
    public let errorName: ErrorName?
    /// The arguments as they came off the wire.
    public let body: MessageBody
    /// `false` when a method call was sent with `NO_REPLY_EXPECTED`.
    public let expectsReply: Bool
    /// The arguments, for the messages that arrive decoded.
    private let decoded: [DBusValue]?

    public var signature: Signature { body.signature }

    /// The arguments. A signal's are decoded from ``body`` at each use, so a handler binds them
    /// once. The one body this layer cannot decode, a Unix fd inside a variant, reads as none.
    public var arguments: [DBusValue] { decoded ?? ((try? body.values()) ?? []) }

    /// The first argument, decoding no further (what a match rule's `arg0` looks at).
    var firstArgument: DBusValue? { decoded?.first ?? (try? body.values(limit: 1))?.first }

    /// The error an error reply carries (its name, and its first string argument as the message).
    public var error: BusError? {
        guard kind == .error else { return nil }
        let text = (try? arguments.first?.string()) ?? ""
        return BusError(errorName ?? .failed, text)
    }

    /// Reads a libdbus message; the handle stays owned by the caller. `decodingArguments` decodes
    /// the body now, and then a body this layer cannot decode (a Unix fd) throws.
    init(reading message: OpaquePointer, names: inout HeaderNames, decodingArguments: Bool) throws(MarshallingError) {
        try self.init(reading: message, names: &names) { _, _, _ in decodingArguments ? .dbus : nil }
    }

    /// Reads a libdbus message; the handle stays owned by the caller. Once the header is read,
    /// `limits` says, from the path, interface and member, what the arguments may hold, or `nil` to
    /// leave them to be decoded when asked. A body over the limits' bytes (``BodyLength``) throws
    /// before it is copied; an array or a nesting beyond them throws as it is decoded, before it is
    /// built.
    ///
    /// The corresponding libdbus calls are the `dbus_message_get_*` accessors and
    /// `dbus_message_marshal` (see ``MessageBody``).
    init(
        reading message: OpaquePointer, names: inout HeaderNames,
        limits: (ObjectPath?, InterfaceName?, MemberName?) -> ArgumentLimits?
    ) throws(MarshallingError) {
        switch dbus_message_get_type(message) {
        case cdbus_message_type_method_call: kind = .methodCall
        case cdbus_message_type_method_return: kind = .methodReturn
        case cdbus_message_type_error: kind = .error
        default: kind = .signal
        }
        serial = dbus_message_get_serial(message)
        replySerial = dbus_message_get_reply_serial(message)
        sender = names.text(dbus_message_get_sender(message))
        destination = names.text(dbus_message_get_destination(message))
        path = names.text(dbus_message_get_path(message)).map(ObjectPath.init(validated:))
        interface = names.text(dbus_message_get_interface(message)).map(InterfaceName.init(validated:))
        member = names.text(dbus_message_get_member(message)).map(MemberName.init(validated:))
        errorName = names.text(dbus_message_get_error_name(message)).map(ErrorName.init(validated:))
        expectsReply = dbus_message_get_no_reply(message) == 0
        let limits = limits(path, interface, member)
        if let limits, limits.bytes < .max, BodyLength.of(message, upTo: limits.bytes) > limits.bytes {
            throw MarshallingError(reason: "the arguments take more than \(limits.bytes) bytes, more than \(member?.rawValue ?? "the method") accepts")
        }
        let body = try MessageBody(of: message, signature: Signature(validated: names.text(dbus_message_get_signature(message)) ?? ""))
        self.body = body
        decoded = try limits.map { limits throws(MarshallingError) in try body.values(within: limits) }
    }
}

/// The header strings a connection saw lately, reused so that a stream of signals from one player
/// makes no new `String` for its path, interface, member and signature.
///
/// Owned by one connection and used on its thread only. Bounded: a peer sending ever new names
/// just cycles it.
struct HeaderNames {
    static let capacity = 16
    private var recent: [String] = []
    private var next = 0

    /// The C string as a `String`: one seen lately, or a new one that is then remembered.
    mutating func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let count = strlen(pointer)
        // Up to 15 bytes a `String` is stored inline: making one allocates nothing, keeping it saves nothing.
        guard count > 15 else { return String(cString: pointer) }
        for candidate in recent where candidate.utf8.count == count {
            let same = candidate.utf8.withContiguousStorageIfAvailable { stored in
                stored.baseAddress.map { memcmp($0, pointer, count) == 0 } ?? false
            }
            if same == true {
                return candidate
            }
        }
        let made = String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
        if recent.count < Self.capacity {
            recent.append(made)
        } else {
            recent[next] = made
            next = (next + 1) % Self.capacity
        }
        return made
    }
}

/// A method call to send.
public struct MethodCall: Sendable {
    public var destination: BusName?
    public var path: ObjectPath
    public var interface: InterfaceName?
    public var member: MemberName
    public var arguments: [DBusValue]
    /// Whether the bus may start the destination service to deliver this call (bus activation).
    public var allowsAutoStart: Bool

    public init(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [DBusValue] = [], allowsAutoStart: Bool = true
    ) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.allowsAutoStart = allowsAutoStart
    }
}

/// A signal to emit.
public struct SignalEmission: Sendable {
    public var path: ObjectPath
    public var interface: InterfaceName
    public var member: MemberName
    public var arguments: [DBusValue]
    /// For a unicast signal; `nil` broadcasts to every matching subscriber.
    public var destination: BusName?
    /// Arguments that write themselves into the message (see ``MessageArguments``), sent instead
    /// of `arguments`.
    public var body: (any MessageArguments)?

    public init(path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [DBusValue] = [], destination: BusName? = nil) {
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.destination = destination
    }

    public init(path: ObjectPath, interface: InterfaceName, member: MemberName, body: some MessageArguments, destination: BusName? = nil) {
        self.init(path: path, interface: interface, member: member, destination: destination)
        self.body = body
    }
}

/// Where a reply goes: the caller and the serial of its call.
struct ReplyAddress: Sendable {
    var serial: UInt32
    var sender: String?
}

/// What the connection's thread turns into a libdbus message and sends.
enum Outgoing: Sendable {
    case methodCall(MethodCall, expectsReply: Bool)
    case signal(SignalEmission)
    case reply(ReplyAddress, any MessageArguments)
    case error(ReplyAddress, BusError)

    /// Builds the libdbus message (``WireMessage``); the caller owns (and must unref) the result.
    /// Returns `nil` only when memory runs out or libdbus refuses the message; a reply it refuses
    /// is answered with `Failed` instead.
    func makeMessage() -> OpaquePointer? {
        switch self {
        case .methodCall(let call, let expectsReply):
            let header = WireMessage.Header(
                kind: .methodCall, path: call.path.rawValue, interface: call.interface?.rawValue, member: call.member.rawValue,
                destination: call.destination?.rawValue, expectsReply: expectsReply, allowsAutoStart: call.allowsAutoStart)
            return WireMessage.make(header, arguments: ValueArguments(call.arguments))
        case .signal(let signal):
            let header = WireMessage.Header(
                kind: .signal, path: signal.path.rawValue, interface: signal.interface.rawValue,
                member: signal.member.rawValue, destination: signal.destination?.rawValue)
            return WireMessage.make(header, arguments: signal.body ?? ValueArguments(signal.arguments))
        case .reply(let address, let arguments):
            let header = WireMessage.Header(kind: .methodReturn, replySerial: address.serial, destination: address.sender)
            if let message = WireMessage.make(header, arguments: arguments) { return message }
            // A caller must not wait for its timeout because its reply could not be built.
            return Outgoing.error(address, .failed("internal error: the reply '\(arguments.signature)' could not be built"))
                .makeMessage()
        case .error(let address, let error):
            let header = WireMessage.Header(
                kind: .error, errorName: error.name.rawValue, replySerial: address.serial, destination: address.sender)
            return WireMessage.make(header, arguments: ValueArguments([.string(error.message)]))
        }
    }
}
