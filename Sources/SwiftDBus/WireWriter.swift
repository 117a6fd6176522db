internal import CDBus

/// Bytes in the D-Bus wire format, little-endian, as the specification lays them out: each value
/// aligned to its size from the start of the message.
///
/// Only what ``ArgumentWriter`` and ``WireMessage`` need: bytes, 32- and 64-bit integers, strings,
/// signatures, and arrays whose length is filled in once their elements are written. Written
/// straight into memory it owns: appending to an `Array` a few bytes at a time cost more than
/// libdbus's iterators saved (~17k instructions per `MediaAdded`; callgrind).
struct WireWriter: ~Copyable {
    private var base: UnsafeMutableRawPointer?
    private var capacity: Int
    private(set) var count = 0

    /// A writer with room for `capacity` bytes (it grows as needed); with 0 it allocates nothing
    /// until written to.
    init(capacity: Int) {
        self.capacity = capacity
        base = capacity > 0 ? .allocate(byteCount: capacity, alignment: 8) : nil
    }

    deinit { base?.deallocate() }

    /// The bytes written so far.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Makes room for `extra` more bytes and returns where they go.
    private mutating func room(_ extra: Int) -> UnsafeMutableRawPointer {
        if count + extra > capacity {
            let grown = max(capacity * 2, count + extra, 256)
            let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
            if let base {
                moved.copyMemory(from: base, byteCount: count)
                base.deallocate()
            }
            base = moved
            capacity = grown
        }
        // `room` has just made sure there is a buffer.
        return base.unsafelyUnwrapped + count
    }

    mutating func align(_ boundary: Int) {
        let padding = (boundary - count % boundary) & (boundary - 1)
        guard padding > 0 else { return }
        room(padding).initializeMemory(as: UInt8.self, repeating: 0, count: padding)
        count += padding
    }

    mutating func byte(_ value: UInt8) {
        room(1).storeBytes(of: value, as: UInt8.self)
        count += 1
    }

    mutating func uint32(_ value: UInt32) {
        align(4)
        room(4).storeBytes(of: value.littleEndian, as: UInt32.self)
        count += 4
    }

    mutating func int64(_ value: Int64) {
        align(8)
        room(8).storeBytes(of: value.littleEndian, as: Int64.self)
        count += 8
    }

    /// Length, bytes, NUL: a string's or an object path's form, and (with a one-byte length) a
    /// signature's.
    private mutating func counted(_ bytes: UnsafeRawBufferPointer, lengthBytes: Int) {
        let start = room(lengthBytes + bytes.count + 1)
        if lengthBytes == 4 {
            start.storeBytes(of: UInt32(bytes.count).littleEndian, as: UInt32.self)
        } else {
            start.storeBytes(of: UInt8(truncatingIfNeeded: bytes.count), as: UInt8.self)
        }
        if let source = bytes.baseAddress { (start + lengthBytes).copyMemory(from: source, byteCount: bytes.count) }
        (start + lengthBytes + bytes.count).storeBytes(of: 0, as: UInt8.self)
        count += lengthBytes + bytes.count + 1
    }

    /// A string or object path. Each NUL inside becomes U+FFFD, which D-Bus can carry (see
    /// ``ArgumentWriter``).
    mutating func string(_ text: String) {
        align(4)
        var text = text
        text.withUTF8 { utf8 in
            if utf8.contains(0) {
                let cleaned = utf8.flatMap { $0 == 0 ? [0xEF, 0xBF, 0xBD] : [$0] }
                cleaned.withUnsafeBytes { counted($0, lengthBytes: 4) }
            } else {
                counted(UnsafeRawBufferPointer(utf8), lengthBytes: 4)
            }
        }
    }

    mutating func string(_ text: StaticString) {
        align(4)
        counted(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), lengthBytes: 4)
    }

    /// A signature: one byte of length, the type codes, NUL. At most 255 bytes (longer is no valid
    /// signature, and libdbus refuses the message).
    mutating func signature(_ text: StaticString) {
        counted(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), lengthBytes: 1)
    }

    mutating func signature(_ text: String) {
        var text = text
        text.withUTF8 { counted(UnsafeRawBufferPointer($0), lengthBytes: 1) }
    }

    /// Starts an array whose elements align to `elementAlignment`; pass the result to `endArray`.
    /// The padding before the first element is written even when there is none, and not counted.
    mutating func beginArray(elementAlignment: Int) -> (lengthAt: Int, start: Int) {
        align(4)
        let lengthAt = count
        uint32(0)
        align(elementAlignment)
        return (lengthAt, count)
    }

    mutating func endArray(_ array: (lengthAt: Int, start: Int)) {
        patch(UInt32(count - array.start), at: array.lengthAt)
    }

    mutating func patch(_ value: UInt32, at offset: Int) {
        guard let base, offset + 4 <= count else { return }
        (base + offset).storeBytes(of: value.littleEndian, as: UInt32.self)
    }
}

/// An outgoing message assembled from its header fields and a body already in the wire format,
/// then handed to libdbus with `dbus_message_demarshal`.
///
/// Why: building a body with libdbus's iterators validates the signature of every variant as it is
/// opened — each validation takes and frees list links under a global lock — which made building a
/// page of 50 assets cost 704 µs against 417 µs for demarshalling the same bytes (bench/run, "floor:
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
        guard written == signature, message.count - bodyStart <= Int(cdbus_maximum_message_length) else { return nil }
        message.patch(UInt32(message.count - bodyStart), at: bodyLengthAt)
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
