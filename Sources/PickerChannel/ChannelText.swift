/// The picker channel's text: one `key value` line per field, in UTF-8, a value's backslashes and
/// line breaks escaped (`\\`, `\n`) so a line is always one field. A repeated key is a list.
///
/// What comes over the channel is read with limits: a message longer than ``maximumBytes``, a line
/// without a key, or an unknown escape is refused whole, never half read.
public struct ChannelText: Sendable, Equatable {
    /// The most bytes one message may have.
    public static let maximumBytes = 256 * 1024

    public private(set) var fields: [(key: String, value: String)] = []

    public init() {}

    public mutating func add(_ key: String, _ value: String) { fields.append((key, value)) }

    public func value(_ key: String) -> String? { fields.first { $0.key == key }?.value }

    public func values(_ key: String) -> [String] { fields.filter { $0.key == key }.map(\.value) }

    public var encoded: [UInt8] {
        var out: [UInt8] = []
        for (key, value) in fields {
            out += key.utf8
            out.append(UInt8(ascii: " "))
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                default: out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    public init(decoding bytes: [UInt8]) throws(ChannelError) {
        guard bytes.count <= Self.maximumBytes else { throw .malformed("a message longer than \(Self.maximumBytes) bytes") }
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            guard let space = line.firstIndex(of: UInt8(ascii: " ")), space > line.startIndex else {
                throw .malformed("a line without a key")
            }
            var value: [UInt8] = []
            var escaped = false
            for byte in line[(space + 1)...] {
                if escaped {
                    switch byte {
                    case UInt8(ascii: "\\"): value.append(byte)
                    case UInt8(ascii: "n"): value.append(UInt8(ascii: "\n"))
                    default: throw .malformed("an unknown escape")
                    }
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else {
                    value.append(byte)
                }
            }
            guard !escaped else { throw .malformed("a line ending in an escape") }
            let key = String(decoding: line[..<space], as: UTF8.self)
            fields.append((key, String(decoding: value, as: UTF8.self)))
        }
    }

    public static func == (a: ChannelText, b: ChannelText) -> Bool {
        a.fields.elementsEqual(b.fields) { $0.key == $1.key && $0.value == $1.value }
    }
}

public struct ChannelError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public static func malformed(_ what: String) -> ChannelError { ChannelError(description: "the picker channel sent " + what) }
    public static func io(_ what: String) -> ChannelError { ChannelError(description: what) }
}
