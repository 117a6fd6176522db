/// The asset `a{sv}` of the D-Bus contract, declared once: each key's name, D-Bus type, limits,
/// whether `Donate` takes it, and its meaning. The broker writes assets from this table, the
/// client reads them by it, `Donate` is validated by it, and docs/dbus-api.md's key list and the
/// introspection data are checked against it. Adding a key is one line here (and the field that
/// holds it on each side, which the compiler asks for).
public enum AssetContract {
    /// Longest text value (title, artist, album, names, paths), in UTF-8 bytes, cut at a character.
    public static let maximumTextBytes = 1024
    /// Longest `app_id`.
    public static let maximumAppIDBytes = 255

    /// The one rule for an `app_id`, wherever it comes from (a method's argument, a player's name,
    /// a donation, the command line, the stored settings): 1–255 bytes of the characters of Flatpak
    /// and desktop-file ids — ASCII letters, digits, `.`, `_` and `-` — not starting with a dot.
    /// Nothing else: an id never carries a line break into the settings, a path or markup.
    public static func isAppID(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumAppIDBytes && !text.hasPrefix(".") && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
    }

    /// What a refusal by ``isAppID(_:)`` says.
    public static let appIDRule = "an app id is 1–255 of the characters A–Z, a–z, 0–9, '.', '_' and '-', not starting with '.'"
    /// The one rule for a site (a web page's host, issue 34), wherever it comes from (a browser's
    /// `xesam:url`, a method's argument, the command line, the stored settings): `text` lowercased,
    /// without a leading `www.` or a trailing dot; `nil` unless it is a host name — letters, digits,
    /// `-` and `.`, or an IP literal's `:`, `[`, `]` — of at most 253 bytes. So a site never holds
    /// a space, a `,`, a line break or a `LIKE` wildcard.
    public static func site(normalizing text: some StringProtocol) -> String? {
        var host = text.lowercased()
        while host.hasSuffix(".") { host.removeLast() }
        if host.hasPrefix("www."), host.count > 4 { host.removeFirst(4) }
        guard !host.isEmpty, host.utf8.count <= 253, !host.hasPrefix("."), !host.contains(".."),
              host.utf8.allSatisfy({ byte in
                  (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
                      || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
              })
        else { return nil }
        return host
    }

    /// Most artists one asset carries.
    public static let maximumArtists = 64

    /// Every key, in the order an asset's entries are written (sorted by name).
    public static let keys: [AssetKeySpec] = [
        AssetKeySpec(.album, .text, donate: .optional, "album or show"),
        AssetKeySpec(.appIcon, .path, donate: .optional, "absolute path of the app's icon file (SVG preferred, else a PNG of at least 128 px) that existed when the asset was made; from the icon theme (theme → parents → hicolor → pixmaps)"),
        AssetKeySpec(.appID, .appID, donate: .required, "the Flatpak or snap app id for a sandboxed player; else the desktop-file id (without `.desktop`) its `DesktopEntry` names or that matches it among installed desktop files; else the MPRIS bus-name stem without an instance suffix (`org.mpris.MediaPlayer2.vlc.instance7389` → `vlc`)"),
        AssetKeySpec(.appName, .text, donate: .optional, "the app's human name: the desktop file's `Name` in the broker's locale, else MPRIS `Identity`"),
        AssetKeySpec(.artist, .text, donate: .optional, "all artists joined with `\", \"`"),
        AssetKeySpec(.artists, .texts, donate: .optional, "the artists, in order"),
        AssetKeySpec(.artwork, .path, donate: .refused, "absolute path of the art kept for this listen: a copy the broker owns, named by its content (PNG, JPEG or WebP)"),
        AssetKeySpec(.artworkURL, .text, donate: .refused, "the player's `http(s)` art URL, kept and never fetched"),
        AssetKeySpec(.ended, .instant, donate: .optional, "when the listen ended (or its latest checkpoint while still playing)"),
        AssetKeySpec(.id, .id, donate: .refused, "identifier, unique and stable in this store (never reused, even after a purge); absent in `NowPlaying`"),
        AssetKeySpec(.kind, .kind, donate: .optional, "`music`, `podcast`, `audiobook` or `video`, when the metadata tells it"),
        AssetKeySpec(.length, .duration, donate: .optional, "the track's length, when the player told it"),
        AssetKeySpec(.listened, .duration, donate: .optional, "time actually heard: time in `Playing` × `Rate`; seeking adds nothing"),
        AssetKeySpec(.site, .text, donate: .refused, "for a listen in a web browser, the site of the page it played on: the host the browser told in `xesam:url`, lowercased, without `www.`; never the page's path or query (version 7)"),
        AssetKeySpec(.source, .text, donate: .refused, "`mpris` or `donation`"),
        AssetKeySpec(.started, .instant, donate: .optional, "when the listen began — GenericMedia's date"),
        AssetKeySpec(.summary, .text, donate: .refused, "one line ready to display: \"Teardrop — Massive Attack · Mezzanine\""),
        AssetKeySpec(.title, .text, donate: .required, "track or episode title (always present: no title, no asset)"),
    ]

    /// The keys alone, in ``keys``' order.
    public static let orderedKeys = keys.map(\.key)

    /// The entry for `key`.
    public static func spec(_ key: AssetKey) -> AssetKeySpec {
        keys.first { $0.key == key } ?? AssetKeySpec(key, .text, donate: .refused, "")
    }

    /// The markdown table of docs/dbus-api.md's asset section, as this declaration writes it.
    public static var markdownTable: String {
        (["| key | type | meaning |", "|---|---|---|"] + keys.map { "| `\($0.key.rawValue)` | `\($0.type.signature)` | \($0.meaning) |" })
            .joined(separator: "\n")
    }

    /// `name:signature` of every key, space-separated, for the introspection annotation.
    public static var annotation: String {
        keys.map { "\($0.key.rawValue):\($0.type.signature)" }.joined(separator: " ")
    }
}

/// An asset key of the contract.
public enum AssetKey: String, CaseIterable, Sendable, Hashable {
    case album, appIcon = "app_icon", appID = "app_id", appName = "app_name", artist, artists, artwork
    case artworkURL = "artwork_url", ended, id, kind, length, listened, site, source, started, summary, title
}

/// One key's line of the contract.
public struct AssetKeySpec: Sendable, Hashable {
    public let key: AssetKey
    public let type: AssetValueType
    public let donate: Donation
    public let meaning: String

    /// Whether `Donate` takes the key.
    public enum Donation: Sendable, Hashable { case required, optional, refused }

    init(_ key: AssetKey, _ type: AssetValueType, donate: Donation, _ meaning: String) {
        self.key = key
        self.type = type
        self.donate = donate
        self.meaning = meaning
    }
}

/// What a key's value is, and so its D-Bus type and limits.
public enum AssetValueType: Sendable, Hashable {
    /// `s`, at most ``AssetContract/maximumTextBytes``.
    case text
    /// `s`, an absolute path.
    case path
    /// `s`, non-empty, at most ``AssetContract/maximumAppIDBytes``.
    case appID
    /// `s`, one of `music`, `podcast`, `audiobook`, `video` (a reader keeps values it does not know).
    case kind
    /// `as`, at most ``AssetContract/maximumArtists``, each a text.
    case texts
    /// `x`, microseconds since the Unix epoch, not negative.
    case instant
    /// `x`, microseconds, not negative.
    case duration
    /// `x`, positive.
    case id

    public var signature: String {
        switch self {
        case .text, .path, .appID, .kind: "s"
        case .texts: "as"
        case .instant, .duration, .id: "x"
        }
    }
}

/// One key's value as the contract carries it.
public enum AssetValue: Sendable, Hashable {
    case text(String)
    case texts([String])
    case integer(Int64)
}
