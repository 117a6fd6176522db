public import SwiftDBus

extension MediaAsset {
    /// The asset as the contract's `a{sv}`: unknown values are absent keys, never empty strings.
    public var fields: DBusValue {
        var map: [String: DBusValue] = [
            "title": .string(title),
            "app_id": .string(appID),
            "started": .int64(started),
            "ended": .int64(ended),
            "listened": .int64(listened),
            "source": .string(source.rawValue),
        ]
        if let id { map["id"] = .int64(id) }
        if !artists.isEmpty {
            map["artists"] = .strings(artists)
            map["artist"] = .string(artists.joined(separator: ", "))
        }
        func put(_ key: String, _ text: String?) {
            if let text, !text.isEmpty { map[key] = .string(text) }
        }
        put("album", album)
        put("app_name", appName)
        put("app_icon", appIcon)
        put("kind", kind?.rawValue)
        if let length { map["length"] = .int64(length) }
        return .vardict(map)
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
