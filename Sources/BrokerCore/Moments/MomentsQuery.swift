/// A `Moments` question, already validated by the caller (``init(filter:)``).
package struct MomentsQuery: Sendable, Hashable {
    static let defaultLimit = 20
    package static let maximumLimit = 200

    /// Only moments that began at or after `since` and before `until`.
    package var since: Microseconds?
    package var until: Microseconds?
    package var limit = MomentsQuery.defaultLimit
    /// Only this app's listens make the moments.
    package var appID: String?
    /// The silence that ends a moment (``MomentGrouping/gaps``).
    package var gap = MomentGrouping.defaultGap
    /// Paging cursor: only moments older than the one with this id.
    package var before: Int64?
    /// "On this day": only moments of the listening day on the same date as the one holding this
    /// instant, in each earlier year (``OnThisDay``); never with `since`, `until` or `before`.
    package var onThisDay: Microseconds?
    /// Apps whose listens are left out before grouping (opted out).
    package var excludingApps: Set<String> = []

    package init(since: Microseconds? = nil, until: Microseconds? = nil, limit: Int = MomentsQuery.defaultLimit,
                 appID: String? = nil, gap: Microseconds = MomentGrouping.defaultGap, before: Int64? = nil,
                 onThisDay: Microseconds? = nil, excludingApps: Set<String> = []) {
        (self.since, self.until, self.limit, self.appID, self.gap, self.before, self.onThisDay, self.excludingApps) =
            (since, until, limit, appID, gap, before, onThisDay, excludingApps)
    }
}
