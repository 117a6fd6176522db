/// How a `MediaAsset` maps onto the asset columns shared by `assets` and `open_listens`.
///
/// Writing normalises to the contract: an empty optional string is stored as NULL ("unknown"), and
/// artists are stored as one text joined with U+001F (INFORMATION SEPARATOR ONE), a character no
/// artist name contains once C0 controls are stripped — so names with commas survive intact.
enum AssetColumns {
    /// The columns in bind/read order, without `id`.
    static let names = [
        "started", "ended", "listened", "length", "title", "artists", "album",
        "app_id", "app_name", "app_icon", "kind", "source",
    ]
    static let list = names.joined(separator: ", ")
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
    }

    /// Reads an asset from columns `first`, `first + 1`, … in `names` order.
    static func read(_ statement: Statement, id: Int64?, from first: Int32) throws(SQLiteError) -> MediaAsset {
        MediaAsset(
            id: id,
            title: try statement.requiredText(at: first + 4, column: "title"),
            artists: decodeArtists(statement.text(at: first + 5)),
            album: nonEmpty(statement.text(at: first + 6)),
            appID: try statement.requiredText(at: first + 7, column: "app_id"),
            appName: nonEmpty(statement.text(at: first + 8)),
            appIcon: nonEmpty(statement.text(at: first + 9)),
            started: statement.int64(at: first),
            ended: statement.int64(at: first + 1),
            listened: statement.int64(at: first + 2),
            length: statement.optionalInt64(at: first + 3),
            kind: nonEmpty(statement.text(at: first + 10)).map(MediaAsset.Kind.init(rawValue:)),
            source: MediaAsset.Source(rawValue: try statement.requiredText(at: first + 11, column: "source")))
    }

    /// `SELECT` list for a stored asset: `id` then the asset columns, as `readStored` expects.
    static let storedList = "id, " + list

    /// Reads a row selected with `storedList`.
    static func readStored(_ statement: Statement) throws(SQLiteError) -> MediaAsset {
        try read(statement, id: statement.int64(at: 0), from: 1)
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

    static func decodeArtists(_ stored: String?) -> [String] {
        guard let stored else { return [] }
        // Split on the separator's byte, not on characters: grapheme breaking cost more than the
        // rest of reading a row (callgrind, RecentMedia pages).
        return stored.utf8.split(separator: 0x1F).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
