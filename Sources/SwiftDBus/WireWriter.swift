/// The one writer of the D-Bus wire format: any ``DBusValue``, a message's header fields, and the
/// shapes ``ArgumentWriter`` writes without a value tree. Every message this layer sends is written
/// here and handed to libdbus whole (``WireMessage``), which validates it again.
///
/// Little-endian, each value aligned to its size from the start of the message, as the
/// specification's "Marshaling (Wire Format)" lays them out. Strings follow ``WireText``: each NUL
/// is written as U+FFFD. Values are written as they are, so a caller checks them first
/// (``Marshalling/check(_:)``); what does not match its signature is refused by libdbus as a whole.
///
/// Bytes go straight into memory the writer owns, released when it goes.
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

    /// Pads with zeros to a multiple of `boundary` (1, 2, 4 or 8).
    mutating func align(_ boundary: Int) {
        assert(boundary > 0 && boundary <= 8 && boundary & (boundary - 1) == 0, "alignment \(boundary)")
        let padding = (0 &- count) & (boundary - 1)
        guard padding > 0 else { return }
        room(8).storeBytes(of: 0, as: UInt64.self)
        count += padding
    }

    mutating func byte(_ value: UInt8) {
        room(1).storeBytes(of: value, as: UInt8.self)
        count += 1
    }

    /// An integer of 2, 4 or 8 bytes, aligned to its size.
    mutating func fixed<T: FixedWidthInteger>(_ value: T) {
        let size = MemoryLayout<T>.size
        align(size)
        room(size).storeBytes(of: value.littleEndian, as: T.self)
        count += size
    }

    /// Length, bytes, NUL: a string's or an object path's form, and (with a one-byte length) a
    /// signature's.
    private mutating func counted(_ bytes: UnsafeRawBufferPointer, lengthBytes: Int) {
        let start = room(lengthBytes + bytes.count + 1)
        if lengthBytes == 4 {
            start.storeBytes(of: UInt32(truncatingIfNeeded: bytes.count).littleEndian, as: UInt32.self)
        } else {
            start.storeBytes(of: UInt8(truncatingIfNeeded: bytes.count), as: UInt8.self)
        }
        if let source = bytes.baseAddress { (start + lengthBytes).copyMemory(from: source, byteCount: bytes.count) }
        (start + lengthBytes + bytes.count).storeBytes(of: 0, as: UInt8.self)
        count += lengthBytes + bytes.count + 1
    }

    /// A string or object path, each NUL in it written as U+FFFD (``WireText``).
    mutating func string(_ text: String) {
        align(4)
        // The bytes where they lie when the string has them in one piece, which saves copying it.
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { stringBytes(UnsafeRawBufferPointer($0)) }
        if written == nil {
            var copy = text
            copy.withUTF8 { stringBytes(UnsafeRawBufferPointer($0)) }
        }
    }

    /// A string's bytes, counted and NUL-terminated, each NUL in them written as U+FFFD.
    private mutating func stringBytes(_ utf8: UnsafeRawBufferPointer) {
        guard WireText.containsNUL(utf8) else { return counted(utf8, lengthBytes: 4) }
        WireText.replacingNULs(utf8).withUnsafeBytes { counted($0, lengthBytes: 4) }
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
        fixed(UInt32(0))
        align(elementAlignment)
        return (lengthAt, count)
    }

    /// An array over 4 GiB gets a wrong length (cut to 32 bits) rather than a trap: the message is
    /// far past D-Bus's limit then, and refused as a whole (``WireMessage``).
    mutating func endArray(_ array: (lengthAt: Int, start: Int)) {
        patch(UInt32(truncatingIfNeeded: count - array.start), at: array.lengthAt)
    }

    mutating func patch(_ value: UInt32, at offset: Int) {
        guard let base, offset + 4 <= count else { return }
        (base + offset).storeBytes(of: value.littleEndian, as: UInt32.self)
    }

    // MARK: Values

    /// Writes `value` whole. It must have passed ``Marshalling/check(_:)``: an array element of
    /// another type, say, is written as it is and makes a body libdbus refuses.
    mutating func value(_ value: DBusValue) {
        switch value {
        case .byte(let v): byte(v)
        case .boolean(let v): fixed(UInt32(v ? 1 : 0))
        case .int16(let v): fixed(v)
        case .uint16(let v): fixed(v)
        case .int32(let v): fixed(v)
        case .uint32(let v): fixed(v)
        case .int64(let v): fixed(v)
        case .uint64(let v): fixed(v)
        case .double(let v): fixed(v.bitPattern)
        case .string(let v): string(v)
        case .objectPath(let v): string(v.rawValue)
        case .signature(let v): signature(v.rawValue)
        case .array(let element, let items):
            let array = beginArray(elementAlignment: Signature.alignment(of: element.rawValue.utf8.first ?? 0))
            for item in items { self.value(item) }
            endArray(array)
        case .dictionary(_, _, let entries):
            let array = beginArray(elementAlignment: 8)
            for entry in entries {
                align(8)
                self.value(entry.key)
                self.value(entry.value)
            }
            endArray(array)
        case .structure(let fields):
            align(8)
            for field in fields { self.value(field) }
        case .variant(let inner):
            signature(inner.signature.rawValue)
            self.value(inner)
        }
    }
}
