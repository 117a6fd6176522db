/// A `RecentMedia` question, already validated by the caller.
package struct RecentQuery: Sendable, Hashable {
    /// The most the contract allows in one answer; larger limits are clamped to it.
    package static let maximumLimit = 1000

    /// Only assets with `started >= since` (inclusive).
    package var since: Microseconds?
    /// Only assets with `started < until` (exclusive).
    package var until: Microseconds?
    /// At most this many assets (the caller has checked 1…1000).
    package var limit: Int
    /// Only this app's assets.
    package var appID: String?
    /// Paging cursor: only assets strictly after this one in the order `started DESC, id DESC`.
    package var beforeID: Int64?
    /// Apps whose assets are never returned (opted out).
    package var excludingApps: Set<String>

    package init(
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
