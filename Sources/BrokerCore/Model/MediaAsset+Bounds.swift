import AssetContract

extension MediaAsset {
    /// The most bytes of artist names one asset carries (the names kept whole, in order). Titles,
    /// albums and names are already cut to `TrackMetadata.Limits.maximumTextBytes`; 64 artists of that
    /// size would make one asset 130 KB on the wire, twice (`artists` and `artist`), and a full
    /// `RecentMedia` page of 1000 such assets larger than a bus will carry.
    static let maximumArtistBytes = 4096

    /// The asset as the broker stores and sends it: artists within ``maximumArtistBytes``, the app's
    /// name, icon path, title and album cleaned and cut like metadata text. `nil` when the app id is
    /// empty or longer than ``BrokerContract/maximumAppIDLength`` — such an app could never be opted
    /// out (`SetAppOptedOut` refuses that id), so nothing of it is recorded or shown — or when no
    /// title is left (no title, no asset).
    ///
    /// With these bounds one asset is at most about 14 KB on the wire, so a full page of
    /// ``BrokerContract/maximumLimit`` assets stays under 14 MB — below the 32 MiB that dbus-daemon
    /// allows by default (`HostileReplySizeTests`).
    package var bounded: MediaAsset? {
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
