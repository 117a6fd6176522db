public import SwiftDBus

/// Where an asset's contract fields go: straight into a message (``VardictWriter``), or into a
/// ``DBusValue`` dictionary (``MediaAsset/fields``). One list of fields serves both.
protocol AssetFieldSink: ~Copyable {
    mutating func add(_ key: StaticString, _ value: String)
    mutating func add(_ key: StaticString, _ value: Int64)
    mutating func add(_ key: StaticString, _ values: [String])
}

extension VardictWriter: AssetFieldSink {}

extension MediaAsset {
    /// The asset as the contract's `a{sv}`: unknown values are absent keys, never empty strings.
    /// Entries in key order, as `DBusValue.vardict` would sort them.
    func writeFields<Sink: AssetFieldSink & ~Copyable>(to sink: inout Sink) {
        func put(_ key: StaticString, text: String?) {
            if let text, !text.isEmpty { sink.add(key, text) }
        }
        put("album", text: album)
        put("app_icon", text: appIcon)
        sink.add("app_id", appID)
        put("app_name", text: appName)
        if !artists.isEmpty {
            sink.add("artist", artists.joined(separator: ", "))
            sink.add("artists", artists)
        }
        sink.add("ended", ended)
        if let id { sink.add("id", id) }
        put("kind", text: kind?.rawValue)
        if let length { sink.add("length", length) }
        sink.add("listened", listened)
        sink.add("source", source.rawValue)
        sink.add("started", started)
        sink.add("title", title)
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

    init() { entries.reserveCapacity(14) }

    mutating func add(_ key: StaticString, _ value: String) { put(key, .string(value)) }
    mutating func add(_ key: StaticString, _ value: Int64) { put(key, .int64(value)) }
    mutating func add(_ key: StaticString, _ values: [String]) { put(key, .strings(values)) }

    private mutating func put(_ key: StaticString, _ value: DBusValue) {
        entries.append(DBusValue.DictionaryEntry(key: .string(key.description), value: .variant(value)))
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
    /// albums and names are already cut to `TrackMetadata.Limits.maxTextBytes`; 64 artists of that
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
        guard !appID.isEmpty, appID.utf8.count <= BrokerContract.maximumAppIDLength,
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
