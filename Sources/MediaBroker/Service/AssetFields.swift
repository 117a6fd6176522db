public import SwiftDBus
import AssetContract

/// Where an asset's contract fields go: straight into a message (``VardictWriter``), or into a
/// ``DBusValue`` dictionary (``MediaAsset/fields``). One list of fields serves both.
protocol AssetFieldSink: ~Copyable {
    mutating func add(_ key: AssetKey, text: String)
    mutating func add(_ key: AssetKey, texts: [String])
    mutating func add(_ key: AssetKey, integer: Int64)
}

extension VardictWriter: AssetFieldSink {
    mutating func add(_ key: AssetKey, text: String) { add(key.rawValue, text) }
    mutating func add(_ key: AssetKey, texts: [String]) { add(key.rawValue, texts) }
    mutating func add(_ key: AssetKey, integer: Int64) { add(key.rawValue, integer) }
}

extension MediaAsset {
    /// The asset as the contract's `a{sv}` (``AssetContract``): every key it has a value for, in
    /// the table's order; unknown values are absent keys, never empty strings.
    func writeFields<Sink: AssetFieldSink & ~Copyable>(to sink: inout Sink) {
        // `artist` joins the artists: once for its own key and the summary.
        let artist = artist
        func text(_ key: AssetKey, _ value: String?) {
            if let value, !value.isEmpty { sink.add(key, text: value) }
        }
        func integer(_ key: AssetKey, _ value: Int64?) {
            if let value { sink.add(key, integer: value) }
        }
        for key in AssetContract.orderedKeys {
            switch key {
            case .album: text(key, album)
            case .appIcon: text(key, appIcon)
            case .appID: sink.add(key, text: appID)
            case .appName: text(key, appName)
            case .artist: text(key, artist)
            case .artists: if !artists.isEmpty { sink.add(key, texts: artists) }
            case .artwork: text(key, artwork)
            case .artworkURL: text(key, artworkURL)
            case .ended: integer(key, ended)
            case .id: integer(key, id)
            case .kind: text(key, kind?.rawValue)
            case .length: integer(key, length)
            case .listened: integer(key, listened)
            case .source: sink.add(key, text: source.rawValue)
            case .started: integer(key, started)
            case .summary: sink.add(key, text: Self.summary(title: title, artist: artist, album: album))
            case .title: sink.add(key, text: title)
            }
        }
    }

    /// One line ready to display: "Teardrop — Massive Attack · Mezzanine", cut like any text.
    public var summary: String { Self.summary(title: title, artist: artist, album: album) }

    static func summary(title: String, artist: String?, album: String?) -> String {
        let album = album.flatMap { $0.isEmpty ? nil : $0 }
        var line = ""
        line.reserveCapacity(title.utf8.count + (artist?.utf8.count ?? 0) + (album?.utf8.count ?? 0) + 10)
        line.append(title)
        if let artist {
            line.append(" — ")
            line.append(artist)
        }
        if let album {
            line.append(" · ")
            line.append(album)
        }
        // The parts are clean already (``bounded``); only together may they pass the bound.
        guard line.utf8.count > AssetContract.maximumTextBytes else { return line }
        return BoundedText.clean(line, maxBytes: AssetContract.maximumTextBytes) ?? title
    }

    /// The asset as the contract's `a{sv}`, as a value (see ``writeFields(to:)``).
    public var fields: DBusValue {
        var entries = FieldEntries()
        writeFields(to: &entries)
        return .dictionary(key: .string, value: .variant, entries.entries)
    }
}

private struct FieldEntries: AssetFieldSink {
    var entries: [DBusValue.DictionaryEntry] = []

    init() { entries.reserveCapacity(AssetContract.keys.count) }

    mutating func add(_ key: AssetKey, text: String) { add(key, .string(text)) }
    mutating func add(_ key: AssetKey, texts: [String]) { add(key, .strings(texts)) }
    mutating func add(_ key: AssetKey, integer: Int64) { add(key, .int64(integer)) }

    private mutating func add(_ key: AssetKey, _ value: DBusValue) {
        entries.append(DBusValue.DictionaryEntry(key: .string(key.rawValue), value: .variant(value)))
    }
}

/// A page of assets as a reply's `aa{sv}`, written straight into the message.
struct AssetPage: MessageArguments {
    let assets: [MediaAsset]
    var signature: Signature { "aa{sv}" }

    func write(to writer: inout ArgumentWriter) {
        writer.appendVardicts(assets) { asset, fields in asset.writeFields(to: &fields) }
    }
}

/// One asset as `MediaAdded`'s `a{sv}`, written straight into the signal.
struct AssetAnnouncement: MessageArguments {
    let asset: MediaAsset
    var signature: Signature { .vardict }

    func write(to writer: inout ArgumentWriter) {
        writer.appendVardict { asset.writeFields(to: &$0) }
    }
}

extension MediaAsset {
    /// The most bytes of artist names one asset carries (the names kept whole, in order). Titles,
    /// albums and names are already cut to `TrackMetadata.Limits.maximumTextBytes`; 64 artists of that
    /// size would make one asset 130 KB on the wire, twice (`artists` and `artist`), and a full
    /// `RecentMedia` page of 1000 such assets larger than a bus will carry.
    public static let maximumArtistBytes = 4096

    /// The asset as the broker stores and sends it: artists within ``maximumArtistBytes``, the app's
    /// name, icon path, title and album cleaned and cut like metadata text. `nil` when the app id is
    /// empty or longer than ``BrokerContract/maximumAppIDLength`` — such an app could never be opted
    /// out (`SetAppOptedOut` refuses that id), so nothing of it is recorded or shown — or when no
    /// title is left (no title, no asset).
    ///
    /// With these bounds one asset is at most about 14 KB on the wire, so a full page of
    /// ``BrokerContract/maximumLimit`` assets stays under 14 MB — below the 32 MiB that dbus-daemon
    /// allows by default (`HostileReplySizeTests`).
    public var bounded: MediaAsset? {
        guard AssetContract.isAppID(appID),
              let title = TrackMetadata.cleanText(title) else { return nil }
        var budget = Self.maximumArtistBytes
        let artistsKept = artists.prefix { artist in
            budget -= artist.utf8.count
            return budget >= 0
        }
        let appName = appName.flatMap(TrackMetadata.cleanText)
        let appIcon = appIcon.flatMap(TrackMetadata.cleanText)
        let album = album.flatMap(TrackMetadata.cleanText)
        // Most assets are within bounds already (a listen's metadata was bounded when it came): then
        // the asset is returned as it is, sharing its storage, rather than copied.
        var asset = self
        if title != self.title { asset.title = title }
        if artistsKept.count != artists.count { asset.artists = Array(artistsKept) }
        if appName != self.appName { asset.appName = appName }
        if appIcon != self.appIcon { asset.appIcon = appIcon }
        if album != self.album { asset.album = album }
        return asset
    }
}
