public import SwiftDBus

extension MediaAsset {
    /// The asset as the contract's `a{sv}`: unknown values are absent keys, never empty strings.
    ///
    /// Entries in key order, as `DBusValue.vardict` would sort them, but written straight in that
    /// order: every `MediaAdded` and every asset of a `RecentMedia` page is built here, and hashing
    /// and sorting the keys each time cost more than the values (callgrind).
    public var fields: DBusValue {
        var entries: [DBusValue.DictionaryEntry] = []
        entries.reserveCapacity(14)
        func put(_ key: String, _ value: DBusValue) {
            entries.append(DBusValue.DictionaryEntry(key: .string(key), value: .variant(value)))
        }
        func put(_ key: String, text: String?) {
            if let text, !text.isEmpty { put(key, .string(text)) }
        }
        put("album", text: album)
        put("app_icon", text: appIcon)
        put("app_id", .string(appID))
        put("app_name", text: appName)
        if !artists.isEmpty {
            put("artist", .string(artists.joined(separator: ", ")))
            put("artists", .strings(artists))
        }
        put("ended", .int64(ended))
        if let id { put("id", .int64(id)) }
        put("kind", text: kind?.rawValue)
        if let length { put("length", .int64(length)) }
        put("listened", .int64(listened))
        put("source", .string(source.rawValue))
        put("started", .int64(started))
        put("title", .string(title))
        return .dictionary(key: .string, value: .variant, entries)
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
        var asset = self
        asset.title = title
        var budget = Self.maximumArtistBytes
        asset.artists = Array(artists.prefix { artist in
            budget -= artist.utf8.count
            return budget >= 0
        })
        asset.appName = appName.flatMap(TrackMetadata.cleanText)
        asset.appIcon = appIcon.flatMap(TrackMetadata.cleanText)
        asset.album = album.flatMap(TrackMetadata.cleanText)
        return asset
    }
}
