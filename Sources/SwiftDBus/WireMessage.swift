internal import CDBus

/// An outgoing message assembled from its header fields and a body already in the wire format,
/// then handed to libdbus with `dbus_message_demarshal`.
///
/// Why: building a body with libdbus's iterators validates the signature of every variant as it is
/// opened — each validation takes and frees list links under a global lock — which made building a
/// page of assets cost about half as much again as demarshalling the same bytes (bench/run, "floor:
/// build one reply" and "demarshal one reply"), and was the largest part of sending `MediaAdded`.
/// Demarshalling still validates the whole message, so libdbus never sends what it would not
/// accept.
///
/// The message is marshalled with serial 1 (zero is invalid) and sent as a `dbus_message_copy`,
/// whose serial is 0 again: the connection numbers it like any other.
enum WireMessage {
    enum Kind: UInt8 {
        case methodReturn = 2
        case signal = 4
    }

    /// `NO_REPLY_EXPECTED`: what libdbus sets on the signals and replies it builds.
    private static let noReplyExpected: UInt8 = 0x1

    struct Header {
        var kind: Kind
        var path: String?
        var interface: String?
        var member: String?
        var replySerial: UInt32?
        var destination: String?
    }

    /// The message with `arguments` as its body, or `nil` when what they wrote does not match
    /// their declared signature (a bug in the sender) or libdbus refuses the message (a body over
    /// the size D-Bus allows, or memory running out). The caller owns the result.
    ///
    /// The header goes first, into the same buffer as the body: the body starts 8-aligned after
    /// it, as the wire format wants, and is never copied before libdbus takes it.
    ///
    /// The corresponding libdbus calls are `dbus_message_demarshal` and `dbus_message_copy`.
    static func make(_ header: Header, arguments: any MessageArguments) -> OpaquePointer? {
        let signature = arguments.signature.rawValue
        var wire = WireWriter(capacity: 1024)
        wire.byte(UInt8(ascii: "l"))
        wire.byte(header.kind.rawValue)
        wire.byte(noReplyExpected)
        wire.byte(1)  // protocol version
        let bodyLengthAt = wire.count
        wire.uint32(0)
        wire.uint32(1)  // serial; the copy sent has 0, and the connection gives it one
        let fields = wire.beginArray(elementAlignment: 8)
        if let path = header.path { field(1, "o", &wire) { $0.string(path) } }
        if let interface = header.interface { field(2, "s", &wire) { $0.string(interface) } }
        if let member = header.member { field(3, "s", &wire) { $0.string(member) } }
        if let replySerial = header.replySerial { field(5, "u", &wire) { $0.uint32(replySerial) } }
        if let destination = header.destination { field(6, "s", &wire) { $0.string(destination) } }
        if !signature.isEmpty { field(8, "g", &wire) { $0.signature(signature) } }
        wire.endArray(fields)
        wire.align(8)
        let bodyStart = wire.count

        var writer = ArgumentWriter(writingAfter: wire)
        arguments.write(to: &writer)
        let written = writer.written
        var message = writer.finish()
        // The limit is the whole message's; past it libdbus would refuse the bytes anyway.
        guard written == signature, message.count <= Int(cdbus_maximum_message_length) else { return nil }
        message.patch(UInt32(truncatingIfNeeded: message.count - bodyStart), at: bodyLengthAt)
        return message.withBytes(demarshalledCopy)
    }

    private static func field(_ code: UInt8, _ type: StaticString, _ wire: inout WireWriter, _ value: (inout WireWriter) -> Void) {
        wire.align(8)
        wire.byte(code)
        wire.signature(type)
        value(&wire)
    }

    /// libdbus's own message from `bytes`, numbered by nobody yet.
    private static func demarshalledCopy(_ bytes: UnsafeRawBufferPointer) -> OpaquePointer? {
        guard let base = bytes.baseAddress, bytes.count <= Int(Int32.max) else { return nil }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let parsed = dbus_message_demarshal(base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), &error)
        else { return nil }
        defer { dbus_message_unref(parsed) }
        return dbus_message_copy(parsed)
    }
}
