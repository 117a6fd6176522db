/// Where a player says a track's art is (`mpris:artUrl`), as the broker treats it: a local file
/// or a `data:` URL is secured and copied (``ArtworkReader``); an `http(s)` URL is only kept, never
/// fetched — the broker does not go to the network; anything else is no art.
package enum ArtworkSource: Hashable, Sendable {
    case file(path: String)
    case data(base64: Bool, payload: Substring)
    case remote(String)

    /// The most bytes of an `artUrl` the broker reads (a `data:` URL of a 4 MB image is ~5.6 MB).
    static let maximumURLBytes = 6 * 1024 * 1024

    package init?(url: String) {
        guard url.utf8.count <= Self.maximumURLBytes else { return nil }
        if Self.starts(url[...], with: "file://") {
            // `file:///path` or `file://localhost/path`; another host is not this machine.
            var rest = url[url.utf8.index(url.startIndex, offsetBy: 7)...]
            if Self.starts(rest, with: "localhost/") { rest = rest[rest.utf8.index(rest.startIndex, offsetBy: 9)...] }
            guard rest.utf8.first == UInt8(ascii: "/"), let path = Self.percentDecoded(rest), !Self.containsNUL(path) else { return nil }
            self = .file(path: path)
        } else if Self.starts(url[...], with: "data:") {
            guard let comma = url.utf8.firstIndex(of: UInt8(ascii: ",")) else { return nil }
            let header = url[url.utf8.index(url.startIndex, offsetBy: 5)..<comma].lowercased()
            self = .data(base64: header.hasSuffix(";base64"), payload: url[url.utf8.index(after: comma)...])
        } else if let remote = Self.remote(url) {
            self = .remote(remote)
        } else {
            return nil
        }
    }

    /// Whether `url` names a place on the network (`http(s)`), which the broker never reads.
    static func isRemote(_ url: String) -> Bool {
        starts(url[...], with: "https://") || starts(url[...], with: "http://")
    }

    /// `url` when it is an `http(s)` URL the broker keeps as text (one line, of bounded size);
    /// cheap enough to ask of every asset built.
    static func remote(_ url: String) -> String? {
        guard isRemote(url), url.utf8.count <= TrackMetadata.Limits.maximumTextBytes,
              !url.unicodeScalars.contains(where: { Self.lineBreaks.contains($0.value) })
        else { return nil }
        return url
    }

    /// What Swift's `Character.isNewline` calls a line break.
    private static let lineBreaks: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]

    /// Whether `text` begins with `prefix` (lowercase ASCII), ignoring ASCII case: a URL's scheme
    /// and host are case-insensitive.
    private static func starts(_ text: Substring, with prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { expected in
            var bytes = text.utf8.makeIterator()
            for want in expected {
                guard let byte = bytes.next() else { return false }
                let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
                guard lowered == want else { return false }
            }
            return true
        }
    }

    /// `%XX` escapes decoded; `nil` for a malformed escape or bytes that are not UTF-8.
    package static func percentDecoded(_ text: Substring) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            // Most paths hold no escape: then they are their own decoding.
            guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
            var decoded: [UInt8] = []
            decoded.reserveCapacity(bytes.count)
            var iterator = bytes.makeIterator()
            while let byte = iterator.next() {
                guard byte == UInt8(ascii: "%") else {
                    decoded.append(byte)
                    continue
                }
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                decoded.append(high << 4 | low)
            }
            return String(validating: decoded, as: UTF8.self)
        }
    }

    /// Whether `text` holds a NUL, which no path can.
    private static func containsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.contains(0) }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// The image formats the broker keeps, told by their first bytes, never by a name or a claim.
enum ImageKind: String, Sendable {
    case png, jpeg, webp

    init?(magic bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }
}
