import SwiftDBus
import BrokerCore

/// A `PickMedia` call's arguments, checked (docs/dbus-api.md, `PickMedia`). Pure.
struct PickOptions: Sendable, Equatable {
    /// The span of listens offered: by default the last ``defaultSpan``.
    var since: Microseconds
    var until: Microseconds
    var reason: String?
    var multiple: Bool
    /// The last element of the request's object path, as portals let the caller choose it.
    var token: String?
    var parentWindow: String
    /// A suggestion's id (issue 35): the picker opens at its moment.
    var suggestion: String?
    /// Whether the caller chose the span (`since` or `until`); a suggestion's moment may set it otherwise.
    var spanGiven: Bool

    static let defaultSpan: Microseconds = 7 * 24 * 3600 * 1_000_000
    static let maximumReasonBytes = 256
    static let maximumTokenBytes = 64

    init(parentWindow: String, options: [String: DBusValue], now: Microseconds) throws(BusError) {
        func value<T>(_ key: String, _ read: (DBusValue) throws -> T, _ type: String) throws(BusError) -> T? {
            guard let raw = options[key] else { return nil }
            guard let value = try? read(raw) else { throw .invalidArgs("'\(key)' must be \(type)") }
            return value
        }
        spanGiven = options["since"] != nil || options["until"] != nil
        until = try value("until", { try $0.integer(as: Int64.self) }, "x (microseconds since the epoch)") ?? now
        since = try value("since", { try $0.integer(as: Int64.self) }, "x (microseconds since the epoch)") ?? until - Self.defaultSpan
        guard since < until else { throw .invalidArgs("'since' must come before 'until'") }
        reason = try value("reason", { try $0.string() }, "s")
        if let reason, reason.utf8.count > Self.maximumReasonBytes {
            throw .invalidArgs("'reason' is longer than \(Self.maximumReasonBytes) bytes")
        }
        multiple = try value("multiple", { try $0.boolean() }, "b") ?? true
        token = try value("handle_token", { try $0.string() }, "s")
        if let token, !Self.isValidToken(token) {
            throw .invalidArgs("'handle_token' must be 1…\(Self.maximumTokenBytes) of the characters A–Z, a–z, 0–9 and _")
        }
        suggestion = try value("suggestion", { try $0.string() }, "s")
        if let suggestion, !SuggestionTokens.isWellFormed(suggestion) {
            throw .invalidArgs("'suggestion' must be a suggestion's id, 32 lowercase hexadecimal digits, as its URL gives it")
        }
        guard parentWindow.isEmpty || parentWindow.hasPrefix("x11:") || parentWindow.hasPrefix("wayland:"),
              parentWindow.utf8.count <= 256 else {
            throw .invalidArgs("'parent_window' must be empty, x11:XID or wayland:HANDLE")
        }
        self.parentWindow = parentWindow
    }

    static func isValidToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= maximumTokenBytes && token.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }

    /// The request object's path for `sender`, as xdg-desktop-portal builds it: the unique name
    /// without its colon and with dots as underscores, then the token.
    static func requestPath(sender: String, token: String) -> ObjectPath? {
        let caller = String(sender.drop { $0 == ":" }.map { $0 == "." ? "_" : $0 })
        return try? ObjectPath("\(BrokerContract.objectPath.rawValue)/request/\(caller)/\(token)")
    }
}
