#if canImport(Glibc)
import Glibc
#endif

/// The one rule for text that D-Bus cannot carry, applied by the writer (``WireWriter``) and the
/// reader (``BodyReader``) alike.
///
/// On the wire a string (`s`, and the text of an `o`) is valid UTF-8 without NUL. A Swift `String`
/// is always valid UTF-8 but may hold NUL, and a body that did not come through libdbus's
/// validation may hold either. So, both ways:
///
/// - each NUL becomes U+FFFD (the replacement character);
/// - each ill-formed UTF-8 sequence becomes U+FFFD, as `String(decoding:as:)` repairs it (a
///   Swift string never has one, so this applies to reading only).
///
/// Nothing is refused, cut short or dropped for its text: a bad string costs its bad characters,
/// never the message that carries it. Names (paths, interfaces, members, bus and error names) and
/// signatures are validated types, which can hold neither.
enum WireText {
    /// U+FFFD in UTF-8.
    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// Whether `bytes` hold a NUL.
    static func containsNUL(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return memchr(base, 0, bytes.count) != nil
    }

    /// `bytes` with each NUL replaced by U+FFFD.
    static func replacingNULs(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(utf8.count + 2 * replacement.count)
        var start = 0
        while let nul = utf8[start...].firstIndex(of: 0) {
            cleaned.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<nul]))
            cleaned.append(contentsOf: replacement)
            start = nul + 1
        }
        cleaned.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        return cleaned
    }

    /// The string that a wire string's bytes (without their terminating NUL) stand for.
    static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        guard containsNUL(bytes) else { return String(decoding: bytes, as: UTF8.self) }
        return replacingNULs(bytes).withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
