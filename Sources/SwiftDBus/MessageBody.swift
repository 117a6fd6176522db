internal import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// The arguments of a message as they lie on the wire: their signature and the marshalled bytes, in
/// the sender's byte order. Read them with ``read(_:)`` (``BodyReader``), or whole with
/// ``values()``.
///
/// libdbus validates every message as it reads it from the socket (the body matches its signature,
/// strings are UTF-8 without NUL, nesting stays within 64 containers), so a received body is well
/// formed. Two bodies are equal when their signatures and bytes are: the same values, sent the same
/// way. That comparison is what lets a handler drop a player's exact repeat without decoding
/// anything.
public struct MessageBody: Sendable, Equatable {
    public let signature: Signature
    let bytes: [UInt8]
    let isBigEndian: Bool

    init(signature: Signature, bytes: [UInt8], isBigEndian: Bool) {
        self.signature = signature
        self.bytes = bytes
        self.isBigEndian = isBigEndian
    }

    /// The body of `message`, copied out of libdbus. The handle stays owned by the caller.
    ///
    /// The corresponding libdbus call is `dbus_message_marshal`, which gives the whole message:
    /// the header (whose bytes 4–7 hold the body's length) followed by the body.
    init(of message: OpaquePointer, signature: Signature) throws(MarshallingError) {
        var data: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &data, &length) != 0, let data else {
            throw MarshallingError(reason: "out of memory copying a message")
        }
        defer { dbus_free(data) }
        let wire = UnsafeRawBufferPointer(start: data, count: Int(length))
        guard wire.count >= 16 else { throw WireCursor.malformed("a header shorter than 16 bytes") }
        let isBigEndian = wire[0] == UInt8(ascii: "B")
        let raw = wire.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        let bodyLength = Int(isBigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw))
        guard bodyLength <= wire.count - 16 else { throw WireCursor.malformed("a body longer than its message") }
        let body = UnsafeRawBufferPointer(rebasing: wire[(wire.count - bodyLength)...])
        self.init(signature: signature, bytes: Array(body), isBigEndian: isBigEndian)
    }

    /// The body a message carrying `values` has: checked (``Marshalling/check(_:)``), then written
    /// by ``WireWriter``, as any message this layer sends.
    public init(_ values: [DBusValue]) throws(MarshallingError) {
        try Marshalling.check(values)
        var wire = WireWriter(capacity: 256)
        for value in values { wire.value(value) }
        self.init(signature: .sequence(values.map(\.signature)), bytes: wire.withBytes { Array($0) }, isBigEndian: false)
    }

    /// Reads the body through `read`, which takes the arguments in order (see ``BodyReader``) and
    /// keeps what it needs. Not generic over a result: across the module boundary a generic
    /// `read<T>` runs unspecialised, asking the runtime for `Result<T, …>` on every message.
    public func read(_ read: (inout BodyReader) throws(MarshallingError) -> Void) throws(MarshallingError) {
        try self.read(within: .dbus, read)
    }

    /// Reads the body as ``read(_:)`` does, refusing (throwing) arrays of more elements and values
    /// nested deeper than `limits` allow.
    func read(within limits: ArgumentLimits, _ read: (inout BodyReader) throws(MarshallingError) -> Void) throws(MarshallingError) {
        var text = signature.rawValue
        var failure: MarshallingError?
        text.withUTF8 { signature in
            bytes.withUnsafeBytes { body in
                var reader = BodyReader(
                    wire: WireCursor(body, isBigEndian: isBigEndian, limits: limits),
                    types: WireCursor.Types(text: UnsafeRawBufferPointer(signature), index: 0))
                do throws(MarshallingError) { try read(&reader) } catch { failure = error }
            }
        }
        if let failure { throw failure }
    }

    /// The values, in order, each read whole by ``BodyReader/value()``. Throws only for what this
    /// layer does not carry (a Unix fd), or for bytes that do not match the signature — which
    /// libdbus never lets through.
    public func values() throws(MarshallingError) -> [DBusValue] {
        try values(limit: .max)
    }

    /// The first `limit` values only (a match rule's `arg0` needs one), each within `limits`.
    func values(limit: Int = .max, within limits: ArgumentLimits = .dbus) throws(MarshallingError) -> [DBusValue] {
        var values: [DBusValue] = []
        try read(within: limits) { reader throws(MarshallingError) in
            while !reader.isAtEnd && values.count < limit { values.append(try reader.value()) }
        }
        return values
    }

    public static func == (a: MessageBody, b: MessageBody) -> Bool {
        guard a.isBigEndian == b.isBigEndian, a.bytes.count == b.bytes.count, a.signature == b.signature else { return false }
        return a.bytes.withUnsafeBytes { x in
            b.bytes.withUnsafeBytes { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return x.isEmpty }
                return memcmp(p, q, x.count) == 0
            }
        }
    }
}
