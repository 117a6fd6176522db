/// What the store answers for an insert.
public struct InsertOutcome: Sendable, Hashable {
    /// The asset's id: the new one, or the id of the asset already recorded for the same listen.
    public var id: Int64
    /// `false` when the same listen (same `appID`, `started` and `title`) was already stored; the
    /// stored asset was kept as it was, and no `MediaAdded` is due.
    public var wasNew: Bool

    public init(id: Int64, wasNew: Bool) {
        self.id = id
        self.wasNew = wasNew
    }
}

/// A `RecentMedia` question, already validated by the caller.
public struct RecentQuery: Sendable, Hashable {
    /// The most the contract allows in one answer; larger limits are clamped to it.
    public static let maximumLimit = 1000

    /// Only assets with `started >= since` (inclusive).
    public var since: Microseconds?
    /// Only assets with `started < until` (exclusive).
    public var until: Microseconds?
    /// At most this many assets (the caller has checked 1…1000).
    public var limit: Int
    /// Only this app's assets.
    public var appID: String?
    /// Paging cursor: only assets strictly after this one in the order `started DESC, id DESC`.
    public var beforeID: Int64?
    /// Apps whose assets are never returned (opted out).
    public var excludingApps: Set<String>

    public init(
        since: Microseconds? = nil, until: Microseconds? = nil, limit: Int = 50, appID: String? = nil,
        beforeID: Int64? = nil, excludingApps: Set<String> = []
    ) {
        self.since = since
        self.until = until
        self.limit = limit
        self.appID = appID
        self.beforeID = beforeID
        self.excludingApps = excludingApps
    }
}

/// Which assets a purge deletes.
public enum PurgeScope: Sendable, Hashable {
    /// Every asset of one app.
    case app(String)
    /// Assets with `since <= started < until`; a missing bound is open.
    case range(since: Microseconds?, until: Microseconds?)
    /// Everything.
    case all
}

/// One app as the history knows it, for `Apps()`.
public struct AppSummary: Sendable, Hashable {
    public var appID: String
    /// The name and icon of the app's most recent asset.
    public var appName: String?
    public var appIcon: String?
    public var listens: Int
    /// `started` of the app's most recent asset.
    public var lastSeen: Microseconds

    public init(appID: String, appName: String?, appIcon: String?, listens: Int, lastSeen: Microseconds) {
        self.appID = appID
        self.appName = appName
        self.appIcon = appIcon
        self.listens = listens
        self.lastSeen = lastSeen
    }
}

/// A listen still in progress, as last checkpointed.
public struct OpenListen: Sendable, Hashable {
    /// The caller's key for it, e.g. the player's unique bus name and the start time.
    public var key: String
    public var asset: MediaAsset
    /// When it was last written.
    public var checkpoint: Microseconds

    public init(key: String, asset: MediaAsset, checkpoint: Microseconds) {
        self.key = key
        self.asset = asset
        self.checkpoint = checkpoint
    }
}
