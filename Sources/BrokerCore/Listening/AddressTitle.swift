/// Whether a title is a web address instead of a name (issue 17).
///
/// A browser tab with no `<title>` and no Media Session metadata is announced with its address as
/// the title: Chromium sends `127.0.0.1:8766/notitle.html`. That is no track a person heard, and a
/// real address carries paths and query strings (tokens, search terms) that are not to be kept. So
/// such a title counts as no title — and metadata without a title makes no listen.
///
/// A title is an address when it has no spaces and
/// - is the player's `xesam:url` (compared without scheme, a leading `www.`, a trailing `/`, and
///   again without the query and fragment), or
/// - has the shape of one: a scheme (`https://…`, `file:///…`), or a host — `localhost`, an IPv4
///   address, a bracketed IPv6 address, or a lower-case dotted name ending in a label of letters —
///   followed by a port, a path, a query or a fragment. A host alone is an address when it is
///   `localhost`, an IP address or starts with `www.`; a bare `example.com` is kept, as a title
///   such as a band's name may look like that.
///
/// Titles with a space, upper-case host names (`Mr.Brightside/Live`) and file names (`song.mp3`,
/// which mpv sends for untagged files) are kept.
enum AddressTitle {
    static func isAddress(_ title: String, url: String?) -> Bool {
        guard !title.isEmpty, !title.utf8.contains(where: { $0 <= 0x20 }) else { return false }
        let bytes = Array(title.utf8)
        if let url, matches(bytes, url: Array(url.utf8)) { return true }
        return hasAddressShape(bytes[...])
    }

    // MARK: The player's own URL

    private static func matches(_ title: [UInt8], url: [UInt8]) -> Bool {
        let title = normalized(title[...])
        let url = normalized(url[...])
        guard !title.isEmpty else { return false }
        return title.elementsEqual(url) || title.elementsEqual(url.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") })
    }

    /// `text` without a scheme, a leading `www.` and a trailing `/`.
    private static func normalized(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var rest = text
        if let length = schemeLength(rest) { rest = rest.dropFirst(length) }
        if rest.starts(with: "www.".utf8) { rest = rest.dropFirst(4) }
        if rest.last == UInt8(ascii: "/") { rest = rest.dropLast() }
        return rest
    }

    // MARK: The shape of an address

    private static func hasAddressShape(_ text: ArraySlice<UInt8>) -> Bool {
        if let length = schemeLength(text) { return text.count > length }
        let hostEnd = text.firstIndex { [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains($0) } ?? text.endIndex
        var host = text[..<hostEnd]
        var hasPort = false
        if let colon = host.lastIndex(of: UInt8(ascii: ":")),
           host.first != UInt8(ascii: "[") || (colon > host.startIndex && host[colon - 1] == UInt8(ascii: "]")) {
            let port = host[(colon + 1)...]
            guard (1...5).contains(port.count), port.allSatisfy(isDigit) else { return false }
            host = host[..<colon]
            hasPort = true
        }
        let hasRest = hostEnd < text.endIndex
        switch hostKind(host) {
        case .none: return false
        case .loopbackOrIP: return true
        case .name(let startsWithWWW): return hasPort || hasRest || startsWithWWW
        }
    }

    private enum HostKind {
        case loopbackOrIP
        case name(startsWithWWW: Bool)
    }

    private static func hostKind(_ host: ArraySlice<UInt8>) -> HostKind? {
        if host.elementsEqual("localhost".utf8) { return .loopbackOrIP }
        if host.first == UInt8(ascii: "["), host.last == UInt8(ascii: "]"), host.count > 2 {
            let inside = host.dropFirst().dropLast()
            return inside.allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") } ? .loopbackOrIP : nil
        }
        let labels = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return nil }
        if labels.count == 4, labels.allSatisfy({ (1...3).contains($0.count) && $0.allSatisfy(isDigit) }) { return .loopbackOrIP }
        let isLabel = { (label: ArraySlice<UInt8>) in
            !label.isEmpty && label.count <= 63
                && label.allSatisfy { isLowercaseLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
        }
        guard labels.allSatisfy(isLabel), let top = labels.last, top.count >= 2, top.allSatisfy(isLowercaseLetter) else { return nil }
        return .name(startsWithWWW: labels.first?.elementsEqual("www".utf8) == true)
    }

    /// The length of a leading `scheme://` (a letter, then letters, digits, `+`, `-` or `.`).
    private static func schemeLength(_ text: ArraySlice<UInt8>) -> Int? {
        guard let first = text.first, isLetter(first) else { return nil }
        var index = text.startIndex + 1
        while index < text.endIndex, isLetter(text[index]) || isDigit(text[index]) || [UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ".")].contains(text[index]) {
            index += 1
        }
        guard text[index...].starts(with: "://".utf8) else { return nil }
        return index - text.startIndex + 3
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isLowercaseLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool { isLowercaseLetter(byte | 0x20) }
    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (0x61...0x66).contains(byte | 0x20) }
}
