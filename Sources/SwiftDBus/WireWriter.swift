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

    /// Pads with zeros to a multiple of `boundary` (1, 2, 4 or 8): with a mask, not a division,
    /// and as one 8-byte store, not a fill — some sixty times per `MediaAdded`.
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
            start.storeBytes(of: UInt32(truncatingIfNeeded: bytes.count).littleEndian, as: UInt32.self)
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
        // The bytes where they lie: `withUTF8` needs a mutable copy of the string, which cost a
        // retain and a release of its storage per string written (callgrind, `MediaAdded`).
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { stringBytes($0) }
        if written == nil {
            var copy = text
            copy.withUTF8 { stringBytes($0) }
        }
    }

    /// A string's bytes, counted and NUL-terminated, each NUL in them sent as U+FFFD.
    private mutating func stringBytes(_ utf8: UnsafeBufferPointer<UInt8>) {
        if utf8.contains(0) {
            var cleaned: [UInt8] = []
            cleaned.reserveCapacity(utf8.count + 2 * utf8.count { $0 == 0 })
            for byte in utf8 {
                if byte == 0 { cleaned.append(contentsOf: [0xEF, 0xBF, 0xBD]) } else { cleaned.append(byte) }
            }
            cleaned.withUnsafeBytes { counted($0, lengthBytes: 4) }
        } else {
            counted(UnsafeRawBufferPointer(utf8), lengthBytes: 4)
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

    /// An array over 4 GiB gets a wrong length (cut to 32 bits) rather than a trap: the message is
    /// far past D-Bus's limit then, and refused as a whole (``WireMessage``).
    mutating func endArray(_ array: (lengthAt: Int, start: Int)) {
        patch(UInt32(truncatingIfNeeded: count - array.start), at: array.lengthAt)
    }

    mutating func patch(_ value: UInt32, at offset: Int) {
        guard let base, offset + 4 <= count else { return }
        (base + offset).storeBytes(of: value.littleEndian, as: UInt32.self)
    }
}
