internal import CDBus

/// Every outgoing message — method call, reply, error, signal — assembled in the wire format by
/// ``WireWriter`` (header fields, then the body ``ArgumentWriter`` writes after them) and handed to
/// libdbus with `dbus_message_demarshal`.
///
/// Demarshalling validates the whole message, so libdbus never sends what it would not accept, and
/// a body that does not match its signature is refused rather than sent. libdbus's own iterators
/// validate each variant's signature as it is opened, which the `RecentMedia` rows of `bench/run`
/// pay for, so the body is written here instead.
///
/// The message is marshalled with serial 1 (zero is invalid) and sent as a `dbus_message_copy`,
/// whose serial is 0 again: the connection numbers it like any other.
enum WireMessage {
    enum Kind {
        case methodCall, methodReturn, error, signal

        var code: UInt8 {
            switch self {
            case .methodCall: UInt8(cdbus_message_type_method_call)
            case .methodReturn: UInt8(cdbus_message_type_method_return)
            case .error: UInt8(cdbus_message_type_error)
            case .signal: UInt8(cdbus_message_type_signal)
            }
        }
    }

    struct Header {
        var kind: Kind
        var path: String?
        var interface: String?
        var member: String?
        var errorName: String?
        var replySerial: UInt32?
        var destination: String?
        /// `NO_REPLY_EXPECTED`, which libdbus sets on the signals, replies and errors it builds.
        var expectsReply = false
        /// Without it, `NO_AUTO_START`: the bus must not start the destination to deliver the call.
        var allowsAutoStart = true
    }

    /// The message with `arguments` as its body, or `nil` when what they wrote does not match
    /// their declared signature (a bug in the sender) or libdbus refuses the message (a body over
    /// the size D-Bus allows, a value that does not match its type, or memory running out). The
    /// caller owns the result.
    ///
    /// The header goes first, into the same buffer as the body: the body starts 8-aligned after
    /// it, as the wire format wants, and is never copied before libdbus takes it.
    ///
    /// The corresponding libdbus calls are `dbus_message_demarshal` and `dbus_message_copy`.
    static func make(_ header: Header, arguments: any MessageArguments) -> OpaquePointer? {
        let signature = arguments.signature.rawValue
        var wire = WireWriter(capacity: 1024)
        wire.byte(cdbus_little_endian)
        wire.byte(header.kind.code)
        wire.byte((header.expectsReply ? 0 : cdbus_header_flag_no_reply_expected)
            | (header.allowsAutoStart ? 0 : cdbus_header_flag_no_auto_start))
        wire.byte(cdbus_major_protocol_version)
        let bodyLengthAt = wire.count
        wire.fixed(UInt32(0))
        wire.fixed(UInt32(1))  // serial; the copy sent has 0, and the connection gives it one
        let fields = wire.beginArray(elementAlignment: 8)
        if let path = header.path { field(cdbus_header_field_path, "o", &wire) { $0.string(path) } }
        if let interface = header.interface { field(cdbus_header_field_interface, "s", &wire) { $0.string(interface) } }
        if let member = header.member { field(cdbus_header_field_member, "s", &wire) { $0.string(member) } }
        if let errorName = header.errorName { field(cdbus_header_field_error_name, "s", &wire) { $0.string(errorName) } }
        if let replySerial = header.replySerial { field(cdbus_header_field_reply_serial, "u", &wire) { $0.fixed(replySerial) } }
        if let destination = header.destination { field(cdbus_header_field_destination, "s", &wire) { $0.string(destination) } }
        if !signature.isEmpty { field(cdbus_header_field_signature, "g", &wire) { $0.signature(signature) } }
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
