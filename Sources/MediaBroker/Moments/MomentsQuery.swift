/// A `Moments` question, already validated by the caller (``init(filter:)``).
struct MomentsQuery: Sendable, Hashable {
    static let defaultLimit = 20
    static let maximumLimit = 200

    /// Only moments that began at or after `since` and before `until`.
    var since: Microseconds?
    var until: Microseconds?
    var limit = MomentsQuery.defaultLimit
    /// Only this app's listens make the moments.
    var appID: String?
    /// The silence that ends a moment (``MomentGrouping/gaps``).
    var gap = MomentGrouping.defaultGap
    /// Paging cursor: only moments older than the one with this id.
    var before: Int64?
    /// Apps whose listens are left out before grouping (opted out).
    var excludingApps: Set<String> = []
}
