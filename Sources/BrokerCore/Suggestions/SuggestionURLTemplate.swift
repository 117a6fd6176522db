/// How a journal app takes a suggestion: the URL its desktop file declares
/// (`X-MediaBroker-Suggestion-URL=examplejournal://suggestion/{id}`, docs/journal-apps.md), the
/// Linux form of iOS's `JSNotificationURLFormat`. A template is refused unless it is a URL with a
/// scheme, holds `{id}` exactly once and only characters a URL may hold as they are — never a
/// space, a quote or anything else a launcher or a shell would read; the id put in its place is
/// percent-encoded. Pure.
package struct SuggestionURLTemplate: Sendable, Hashable {
    package let text: String

    package enum Problem: Error, Equatable, CustomStringConvertible {
        case noScheme
        case placeholderCount(Int)
        case character(Unicode.Scalar)
        case tooLong

        package var description: String {
            switch self {
            case .noScheme: "it does not begin with a URL scheme (like examplejournal:)"
            case .placeholderCount(let count): "it must hold {id} once, not \(count) times"
            case .character(let scalar): "it holds '\(scalar.escaped(asASCII: true))', which a URL cannot hold as it is"
            case .tooLong: "it is longer than \(SuggestionURLTemplate.maximumBytes) bytes"
            }
        }
    }

    static let placeholder = "{id}"
    static let maximumBytes = 1024

    package init(_ text: String) throws(Problem) {
        guard text.utf8.count <= Self.maximumBytes else { throw .tooLong }
        let count = text.split(separator: Self.placeholder, omittingEmptySubsequences: false).count - 1
        guard count == 1 else { throw .placeholderCount(count) }
        let withoutPlaceholder = text.replacing(Self.placeholder, with: "")
        if let bad = withoutPlaceholder.unicodeScalars.first(where: { !Self.isURLCharacter($0) }) { throw .character(bad) }
        guard let colon = text.firstIndex(of: ":"), Self.isScheme(text[..<colon]) else { throw .noScheme }
        self.text = text
    }

    /// The URL for suggestion `id`.
    package func url(for id: String) -> String {
        text.replacing(Self.placeholder, with: Self.percentEncoded(id))
    }

    /// RFC 3986: a letter, then letters, digits, `+`, `-` or `.`.
    static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0) }
    }

    /// RFC 3986's unreserved and reserved characters and `%`; no `'`, which shells and `Exec`
    /// lines quote with, although the RFC allows it.
    static func isURLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCIILetter || scalar.isASCIIDigit || "-._~:/?#[]@!$&()*+,;=%".unicodeScalars.contains(scalar)
    }

    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if scalar.isASCIILetter || scalar.isASCIIDigit || "-._~".unicodeScalars.contains(scalar) {
                encoded.unicodeScalars.append(scalar)
            } else {
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append(contentsOf: ["%", hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        return encoded
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
