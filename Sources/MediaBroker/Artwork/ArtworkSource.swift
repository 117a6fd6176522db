/// Where a player says a track's art is (`mpris:artUrl`), as the broker treats it: a local file
/// or a `data:` URL is secured and copied (``ArtworkReader``); an `http(s)` URL is only kept, never
/// fetched — the broker does not go to the network; anything else is no art.
enum ArtworkSource: Hashable, Sendable {
    case file(path: String)
    case data(base64: Bool, payload: Substring)
    case remote(String)

    /// The most bytes of an `artUrl` the broker reads (a `data:` URL of a 4 MB image is ~5.6 MB).
    static let maximumURLBytes = 6 * 1024 * 1024

    init?(url: String) {
        guard url.utf8.count <= Self.maximumURLBytes else { return nil }
        let lowered = url.prefix(8).lowercased()
        if lowered.hasPrefix("file://") {
            // `file:///path` or `file://localhost/path`; another host is not this machine.
            var rest = url.dropFirst(7)
            if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst(9) }
            guard rest.hasPrefix("/"), let path = Self.percentDecoded(rest), !path.contains("\0") else { return nil }
            self = .file(path: path)
        } else if lowered.hasPrefix("data:") {
            guard let comma = url.firstIndex(of: ",") else { return nil }
            let header = url[url.index(url.startIndex, offsetBy: 5)..<comma].lowercased()
            self = .data(base64: header.hasSuffix(";base64"), payload: url[url.index(after: comma)...])
        } else if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
            guard url.utf8.count <= TrackMetadata.Limits.maxTextBytes, !url.contains(where: \.isNewline) else { return nil }
            self = .remote(url)
        } else {
            return nil
        }
    }

    /// `%XX` escapes decoded; `nil` for a malformed escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
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
