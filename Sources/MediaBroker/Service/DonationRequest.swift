public import SwiftDBus

extension MediaAsset {
    /// Reads `Donate`'s `a{sv}` into an asset, as liberal with integer types as `RecentMedia`'s
    /// filter and as strict with everything else: `app_id` and `title` are required, an unknown
    /// key, a wrong kind or an out-of-range value is `InvalidArgs` naming the key. Text is
    /// cleaned and bounded like MPRIS metadata.
    ///
    /// `listened` defaults to `ended - started`, and `ended` to `started + length` (or `started`):
    /// an app that donates without saying how long is vouching for a listen.
    public init(donation fields: [String: DBusValue], now: Microseconds) throws(BusError) {
        func text(_ key: String, required: Bool = false) throws(BusError) -> String? {
            guard let value = fields[key] else {
                if required { throw .invalidArgs("'\(key)' is required") }
                return nil
            }
            guard let raw = try? value.string() else { throw .invalidArgs("'\(key)' must be a string") }
            let clean = TrackMetadata.cleanText(raw)
            if required, clean == nil { throw .invalidArgs("'\(key)' must not be empty") }
            return clean
        }
        func micros(_ key: String) throws(BusError) -> Microseconds? {
            guard let value = fields[key] else { return nil }
            guard let number = try? value.integer(as: Int64.self), number >= 0 else {
                throw .invalidArgs("'\(key)' must be a non-negative integer of microseconds")
            }
            return number
        }
        let known: Set<String> = ["app_id", "title", "artist", "artists", "album", "app_name", "app_icon",
                                  "started", "ended", "listened", "length", "kind"]
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidArgs("unknown key '\(unknown.prefix(64))' (known: \(known.sorted().joined(separator: ", ")))")
        }
        guard let appID = try text("app_id", required: true), appID.utf8.count <= BrokerContract.maximumAppIDLength,
              !appID.contains("/") else {
            throw .invalidArgs("'app_id' must be a desktop-file id of at most \(BrokerContract.maximumAppIDLength) bytes")
        }
        guard let title = try text("title", required: true) else { throw .invalidArgs("'title' is required") }

        var artists: [String] = []
        if let value = fields["artists"] {
            guard let list = try? value.strings() else { throw .invalidArgs("'artists' must be an array of strings") }
            artists = list.compactMap(TrackMetadata.cleanText)
            if artists.count > TrackMetadata.Limits.maxArtists { artists = Array(artists.prefix(TrackMetadata.Limits.maxArtists)) }
        } else if let artist = try text("artist") {
            artists = [artist]
        }
        let started = try micros("started") ?? now
        // A listen cannot start tomorrow; a little clock skew between processes is allowed.
        guard started <= now + 60_000_000 else { throw .invalidArgs("'started' is in the future") }
        let length = try micros("length")
        if let length, length == 0 { throw .invalidArgs("'length' must be positive") }
        let given = try micros("listened")
        let ended = try micros("ended") ?? (started &+ (given ?? length ?? 0))
        guard ended >= started else { throw .invalidArgs("'ended' must not be before 'started'") }
        let listened = given ?? (ended - started)
        var kind: Kind?
        if let name = try text("kind") {
            guard ["music", "podcast", "audiobook", "video"].contains(name) else {
                throw .invalidArgs("'kind' must be music, podcast, audiobook or video")
            }
            kind = Kind(rawValue: name)
        }
        var icon = try text("app_icon")
        if let path = icon, !path.hasPrefix("/") { icon = nil }
        self.init(title: title, artists: artists, album: try text("album"), appID: appID, appName: try text("app_name"),
                  appIcon: icon, started: started, ended: ended, listened: listened,
                  length: length, kind: kind, source: .donation)
    }
}

extension MediaAsset {
    /// `Donate` as the rule and the person's settings allow it: a `listened` too short to count,
    /// a `started` older than the history is kept (it would be announced, then deleted by the next
    /// retention pass), Media switched off or the app opted out are each refused with a clear error.
    init(donation fields: [String: DBusValue], now: Microseconds, rule: ListenRule, settings: PrivacySettings) throws(BusError) {
        try self.init(donation: fields, now: now)
        if fields["listened"] != nil, !rule.qualifies(listened: listened, length: length) {
            throw .invalidArgs("'listened' is too short to count as a listen")
        }
        if settings.hasExpired(started: started, now: now) {
            throw .invalidArgs("'started' is more than \(settings.retentionDays) days ago, older than the history is kept (RetentionDays)")
        }
        guard settings.mediaEnabled else { throw BusError(.mediaDisabled, "media recording is switched off") }
        guard settings.allows(appID) else { throw BusError(.appOptedOut, "\(appID) is opted out; nothing of it is recorded") }
    }
}
