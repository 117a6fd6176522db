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
