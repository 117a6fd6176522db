internal import Glibc
import BrokerCore

/// How a `MediaAsset` maps onto the asset columns shared by `assets` and `open_listens`.
///
/// Writing normalises to the contract: an empty optional string is stored as NULL ("unknown"), and
/// artists are stored as one text joined with U+001F (INFORMATION SEPARATOR ONE), a character no
/// artist name contains once C0 controls are stripped — so names with commas survive intact.
enum AssetColumns {
    /// The columns in bind/read order, without `id`.
    static let names = [
        "started", "ended", "listened", "length", "title", "artists", "album",
        "app_id", "app_name", "app_icon", "kind", "source", "artwork", "artwork_url", "site",
    ]
    static let list = names.joined(separator: ", ")
    /// The `VALUES` expressions for `names`, one parameter each: `artwork` is stored only when the
    /// file is kept (a write that failed leaves the asset without art, never pointing at nothing).
    static let values = names.map { $0 == "artwork" ? "(SELECT file FROM artwork WHERE file = ?)" : "?" }.joined(separator: ", ")
    static let count = Int32(names.count)
    static let separator: Character = "\u{1F}"

    /// Binds the asset's columns to parameters `first`, `first + 1`, … in `names` order.
    static func bind(_ asset: MediaAsset, to statement: Statement, from first: Int32 = 1) throws(SQLiteError) {
        try statement.bind(asset.started, at: first)
        try statement.bind(asset.ended, at: first + 1)
        try statement.bind(asset.listened, at: first + 2)
        try statement.bind(asset.length, at: first + 3)
        try statement.bind(asset.title, at: first + 4)
        try statement.bind(encodeArtists(asset.artists), at: first + 5)
        try statement.bind(nonEmpty(asset.album), at: first + 6)
        try statement.bind(asset.appID, at: first + 7)
        try statement.bind(nonEmpty(asset.appName), at: first + 8)
        try statement.bind(nonEmpty(asset.appIcon), at: first + 9)
        try statement.bind(nonEmpty(asset.kind?.rawValue), at: first + 10)
        try statement.bind(asset.source.rawValue, at: first + 11)
        try statement.bind(asset.artwork.flatMap(ArtworkFolder.fileName(of:)), at: first + 12)
        try statement.bind(nonEmpty(asset.artworkURL), at: first + 13)
        try statement.bind(nonEmpty(asset.site), at: first + 14)
    }

    /// `SELECT` list for a stored asset: `id` then the asset columns, as `Decoder.readStored` expects.
    static let storedList = "id, " + list

    /// Reads the rows of one query, decoding each text straight from SQLite's bytes.
    ///
    /// The columns that name the app (`app_id`, `app_name`, `app_icon`) and `kind` and `source`
    /// mostly repeat from one row to the next: when a row's bytes are the previous row's, that
    /// row's string is shared instead of being validated and copied again.
    struct Decoder {
        private var appID = RepeatedText()
        private var appName = RepeatedText()
        private var appIcon = RepeatedText()
        private var kind = RepeatedText()
        private var source = RepeatedText()
        /// Where the history's art files are; `nil` for a history in memory.
        let artworkFolder: String?

        init(artworkFolder: String?) {
            self.artworkFolder = artworkFolder
        }

        /// Reads an asset from columns `first`, `first + 1`, … in `names` order.
        mutating func read(_ statement: Statement, id: Int64?, from first: Int32) throws(SQLiteError) -> MediaAsset {
            guard let title = statement.text(at: first + 4) else { throw statement.nullInNotNullColumn("title") }
            guard let appIDBytes = statement.textBytes(at: first + 7) else { throw statement.nullInNotNullColumn("app_id") }
            let appID = appID.string(appIDBytes)
            let appName = statement.textBytes(at: first + 8).flatMap { self.appName.nonEmptyString($0) }
            let appIcon = statement.textBytes(at: first + 9).flatMap { self.appIcon.nonEmptyString($0) }
            let kind = statement.textBytes(at: first + 10).flatMap { self.kind.nonEmptyString($0) }
            guard let sourceBytes = statement.textBytes(at: first + 11) else { throw statement.nullInNotNullColumn("source") }
            let source = self.source.string(sourceBytes)
            return MediaAsset(
                id: id,
                title: title,
                artists: decodeArtists(statement.textBytes(at: first + 5)),
                album: nonEmpty(statement.text(at: first + 6)),
                appID: appID,
                appName: appName,
                appIcon: appIcon,
                started: statement.int64(at: first),
                ended: statement.int64(at: first + 1),
                listened: statement.int64(at: first + 2),
                length: statement.optionalInt64(at: first + 3),
                kind: kind.map(MediaAsset.Kind.init(rawValue:)),
                source: MediaAsset.Source(rawValue: source),
                artwork: artworkFolder.flatMap { folder in nonEmpty(statement.text(at: first + 12)).map { folder + "/" + $0 } },
                artworkURL: nonEmpty(statement.text(at: first + 13)),
                site: nonEmpty(statement.text(at: first + 14)))
        }

        /// Reads a row selected with `storedList`.
        mutating func readStored(_ statement: Statement) throws(SQLiteError) -> MediaAsset {
            try read(statement, id: statement.int64(at: 0), from: 1)
        }

    }

    /// The last string one column gave, to share with the next row when its bytes are the same.
    struct RepeatedText {
        private var last: String?
        /// `last`'s UTF-8, compared with the next row's bytes.
        private var lastBytes: [UInt8] = []

        /// The bytes as a string (repaired with U+FFFD where they are not UTF-8, like `Statement.text`).
        mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            // Equal bytes decode to an equal string.
            if let last, lastBytes.count == bytes.count,
               lastBytes.withUnsafeBufferPointer({ Self.same($0, bytes) }) {
                return last
            }
            let text = String(decoding: bytes, as: UTF8.self)
            last = text
            lastBytes.removeAll(keepingCapacity: true)
            lastBytes.append(contentsOf: bytes)
            return text
        }

        private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let x = a.baseAddress, let y = b.baseAddress else { return a.isEmpty && b.isEmpty }
            return a.count == b.count && memcmp(x, y, a.count) == 0
        }

        /// `nil` for '' (stored "unknown" as written by an older version), else `string(bytes)`.
        mutating func nonEmptyString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            bytes.isEmpty ? nil : string(bytes)
        }
    }

    /// Artists as stored: C0 controls stripped from each, names left empty dropped, joined with
    /// U+001F; no artists at all is NULL, never ''.
    static func encodeArtists(_ artists: [String]) -> String? {
        let cleaned = artists.compactMap { artist -> String? in
            // Names from a player are usually clean already: then the one check is a byte scan.
            if !artist.isEmpty, !hasControlCharacter(artist) { return artist }
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: artist.unicodeScalars.lazy.filter { $0.value >= 0x20 })
            return scalars.isEmpty ? nil : String(scalars)
        }
        switch cleaned.count {
        case 0: return nil
        case 1: return cleaned[0]
        default: return cleaned.joined(separator: String(separator))
        }
    }

    private static func hasControlCharacter(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains { $0 < 0x20 } } ?? text.utf8.contains { $0 < 0x20 }
    }

    /// Artists from the stored bytes: split on the separator's byte, not on characters (grapheme
    /// breaking costs more than the rest of reading a row), each name decoded straight from the
    /// bytes, without a joined string or an array of slices first.
    /// Empty names are dropped, as `split` does by default.
    static func decodeArtists(_ stored: UnsafeBufferPointer<UInt8>?) -> [String] {
        guard let stored, !stored.isEmpty else { return [] }
        var names: [String] = []
        names.reserveCapacity(stored.count { $0 == 0x1F } + 1)
        var start = stored.startIndex
        for index in stored.indices where stored[index] == 0x1F {
            if index > start { names.append(String(decoding: UnsafeBufferPointer(rebasing: stored[start..<index]), as: UTF8.self)) }
            start = index + 1
        }
        if start < stored.endIndex {
            names.append(String(decoding: UnsafeBufferPointer(rebasing: stored[start...]), as: UTF8.self))
        }
        return names
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
