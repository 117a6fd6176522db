/// One listen: a track heard from its first moment of playing until it ended or stopped counting.
///
/// While the listen is open these are its values at the latest checkpoint; once it ends, its final
/// values.
package struct Listen: Sendable, Hashable {
    /// Unique among this player's listens and stable for the listen's life: `"<started>-<serial>"`.
    /// The caller keys its open-listen record by ``storeKey(player:)``, which adds the player.
    package var key: String
    /// The fullest metadata seen for the track during the listen.
    package var metadata: TrackMetadata
    /// The first moment the track was playing — the asset's date.
    package var started: Microseconds
    /// The last moment it was heard (while playing: the latest event or checkpoint).
    package var ended: Microseconds
    /// Time heard: wall-clock time in Playing × Rate. A seek adds nothing.
    package var listened: Microseconds

    package init(key: String, metadata: TrackMetadata, started: Microseconds, ended: Microseconds, listened: Microseconds) {
        self.key = key
        self.metadata = metadata
        self.started = started
        self.ended = max(ended, started)
        self.listened = max(listened, 0)
    }

    /// The track's length, when known.
    package var length: Microseconds? { metadata.length }

    /// The key of the open-listen record in the store: the player's unique bus name, a space, and
    /// ``key``. Unique names (`:1.42`) never contain a space, so ``parseStoreKey(_:)`` splits it back.
    package func storeKey(player uniqueName: String) -> String { uniqueName + " " + key }

    /// The player's unique name and the listen's key from a ``storeKey(player:)``; `nil` for a key
    /// not made that way.
    static func parseStoreKey(_ storeKey: String) -> (player: String, key: String)? {
        guard let space = storeKey.firstIndex(of: " ") else { return nil }
        let player = storeKey[..<space]
        let key = storeKey[storeKey.index(after: space)...]
        guard !player.isEmpty, !key.isEmpty else { return nil }
        return (String(player), String(key))
    }

    /// The asset this listen makes for the app that played it: source `mpris`, `ended` its last
    /// moment heard, `kind` when the metadata tells. `nil` when the metadata has no title — no
    /// title, no asset.
    package func asset(appID: String, appName: String?, appIcon: String?) -> MediaAsset? {
        guard let title = metadata.title else { return nil }
        return MediaAsset(
            title: title, artists: metadata.artists, album: metadata.album, appID: appID, appName: appName,
            appIcon: appIcon, started: started, ended: ended, listened: listened, length: metadata.length,
            kind: metadata.kind, source: .mpris, artworkURL: metadata.artURL.flatMap(ArtworkSource.remote))
    }

    /// The listen an open-listen record holds, as a restarted broker reads it back: the key without
    /// its player, the asset's title, artists, album and length as its metadata (the store keeps no
    /// track id or URL), and its times.
    package init(restoring record: OpenListen) {
        let key = Self.parseStoreKey(record.key)?.key ?? record.key
        let asset = record.asset
        self.init(
            key: key,
            metadata: TrackMetadata(title: asset.title, artists: asset.artists, album: asset.album, length: asset.length,
                                    artURL: asset.artworkURL),
            started: asset.started, ended: asset.ended, listened: asset.listened)
    }
}

/// Why a listen ended without being recorded.
package enum DropReason: String, Sendable, Hashable {
    /// Not heard long enough under the rule.
    case tooShort
    /// The item turned out to be an advert (quirk 23).
    case advert
    /// The player marked the item `mediabroker:exclude`.
    case excluded
    /// The caller discarded it (the app was opted out, or Media was switched off).
    case discarded
}

/// What the caller does after an event: each effect names one store operation.
package enum ListenEffect: Sendable, Hashable {
    /// A listen has been heard long enough to keep (``PlayerListening/firstWriteAfter`` or its
    /// threshold): write it as an open listen, so a crash from now on loses nothing that counted.
    case opened(Listen)
    /// The open listen changed state or crossed its threshold: overwrite its record.
    case checkpoint(Listen)
    /// The listen ended and qualifies: record it as an asset and remove its open record, in one
    /// transaction.
    case finished(Listen)
    /// A written listen ended without being recorded: remove its open record. A listen never
    /// written ends with no effect at all.
    case dropped(Listen, DropReason)

    /// The listen the effect is about.
    package var listen: Listen {
        switch self {
        case .opened(let listen), .checkpoint(let listen), .finished(let listen), .dropped(let listen, _): listen
        }
    }
}
