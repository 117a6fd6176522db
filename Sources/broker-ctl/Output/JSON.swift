/// A JSON value as broker-ctl writes it. Written by hand because JSONSerialization lives in
/// Foundation proper, which would pull ICU into a command that should start instantly.
indirect enum JSONValue: Sendable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case array([JSONValue])
    /// Members in the order given, so output is stable and reads like the contract.
    case object([(key: String, value: JSONValue)])

    /// Compact JSON on one line.
    var serialized: String {
        switch self {
        case .string(let text): JSONValue.quoted(text)
        case .integer(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .array(let elements): "[" + elements.map(\.serialized).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { JSONValue.quoted($0.key) + ":" + $0.value.serialized }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string literal. RFC 8259 requires escaping only the quote, the backslash
    /// and U+0000…U+001F; everything else, non-ASCII included, is valid as UTF-8.
    static func quoted(_ text: String) -> String {
        var result = "\""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// Builds an object member by member, leaving out what is unknown: absent, not null, as on D-Bus.
struct JSONObjectBuilder {
    private(set) var members: [(key: String, value: JSONValue)] = []

    mutating func add(_ key: String, _ value: JSONValue?) {
        if let value { members.append((key, value)) }
    }

    mutating func add(_ key: String, _ text: String?) {
        add(key, text.map(JSONValue.string))
    }

    mutating func add(_ key: String, _ number: Int64?) {
        add(key, number.map(JSONValue.integer))
    }

    var object: JSONValue { .object(members) }
}
