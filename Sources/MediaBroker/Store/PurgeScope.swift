/// Which assets a purge deletes.
public enum PurgeScope: Sendable, Hashable {
    /// Every asset of one app.
    case app(String)
    /// Assets with `since <= started < until`; a missing bound is open.
    case range(since: Microseconds?, until: Microseconds?)
    /// Everything.
    case all
}
