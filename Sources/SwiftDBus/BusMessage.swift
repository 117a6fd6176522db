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
    ///
    /// The corresponding libdbus calls are the `dbus_message_get_*` accessors and
    /// `dbus_message_marshal` (see ``MessageBody``).
    init(reading message: OpaquePointer, names: inout HeaderNames, decodingArguments: Bool) throws(MarshallingError) {
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
        body = try MessageBody(of: message, signature: Signature(validated: names.text(dbus_message_get_signature(message)) ?? ""))
        decoded = decodingArguments ? try body.values() : nil
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
    case reply(ReplyAddress, [DBusValue])
    case replyWriting(ReplyAddress, any MessageArguments)
    case error(ReplyAddress, BusError)

    /// Builds the libdbus message; the caller owns (and must unref) the result.
    ///
    /// The corresponding libdbus calls are `dbus_message_new_method_call`, `dbus_message_copy` of
    /// a signal from `signals`, and `dbus_message_new` with the header setters; arguments that
    /// write themselves go through ``WireMessage`` instead. Returns `nil` only when memory runs out
    /// (or, for a written body, when libdbus refuses it).
    func makeMessage(signals: inout SignalTemplates) -> OpaquePointer? {
        switch self {
        case .signal(let signal):
            guard let body = signal.body else { return makeMessageFromValues(signals: &signals) }
            let header = WireMessage.Header(
                kind: .signal, path: signal.path.rawValue, interface: signal.interface.rawValue,
                member: signal.member.rawValue, destination: signal.destination?.rawValue)
            return WireMessage.make(header, arguments: body)
        case .replyWriting(let address, let writing):
            let header = WireMessage.Header(kind: .methodReturn, replySerial: address.serial, destination: address.sender)
            if let message = WireMessage.make(header, arguments: writing) { return message }
            // A caller must not wait for its timeout because its reply could not be built.
            return Outgoing.error(address, .failed("internal error: the reply '\(writing.signature)' could not be built"))
                .makeMessage(signals: &signals)
        default:
            return makeMessageFromValues(signals: &signals)
        }
    }

    private func makeMessageFromValues(signals: inout SignalTemplates) -> OpaquePointer? {
        let message: OpaquePointer?
        let arguments: [DBusValue]
        switch self {
        case .methodCall(let call, let expectsReply):
            message = dbus_message_new_method_call(
                call.destination?.rawValue, call.path.rawValue, call.interface?.rawValue, call.member.rawValue)
            if let message {
                dbus_message_set_auto_start(message, call.allowsAutoStart ? 1 : 0)
                dbus_message_set_no_reply(message, expectsReply ? 0 : 1)
            }
            arguments = call.arguments
        case .signal(let signal):
            message = signals.newSignal(path: signal.path, interface: signal.interface, member: signal.member)
            if let message, let destination = signal.destination {
                dbus_message_set_destination(message, destination.rawValue)
            }
            arguments = signal.arguments
        case .reply(let address, let values):
            message = dbus_message_new(cdbus_message_type_method_return)
            if let message { Self.address(message, to: address) }
            arguments = values
        case .replyWriting:
            return nil  // see makeMessage
        case .error(let address, let error):
            message = dbus_message_new(cdbus_message_type_error)
            if let message {
                Self.address(message, to: address)
                dbus_message_set_error_name(message, error.name.rawValue)
            }
            arguments = [.string(error.message.replacingNULs())]
        }
        guard let message else { return nil }
        guard Marshalling.append(arguments, to: message) else {
            dbus_message_unref(message)
            return nil
        }
        return message
    }

    private static func address(_ message: OpaquePointer, to address: ReplyAddress) {
        dbus_message_set_no_reply(message, 1)
        dbus_message_set_reply_serial(message, address.serial)
        if let sender = address.sender { dbus_message_set_destination(message, sender) }
    }
}

extension String {
    /// D-Bus strings cannot carry NUL; error messages are ours to clean rather than to drop.
    func replacingNULs() -> String {
        utf8.contains(0) ? String(decoding: utf8.map { $0 == 0 ? UInt8(ascii: "?") : $0 }, as: UTF8.self) : self
    }
}
