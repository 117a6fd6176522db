/// Which assets a `Purge` deletes, as its filter says it (`app_id`, `site`, `since`/`until`, `all`); the
/// broker's instants are ``Microseconds``-valued `Int64`s, a client's `Date`s.
public enum HistoryScope<Instant: Sendable & Hashable>: Sendable, Hashable {
    /// Every asset of one app.
    case app(String)
    /// Every listen on one site in a web browser, and its subdomains' (interface version 7).
    case site(String)
    /// Assets that started in `since ..< until`; a missing bound is open.
    case range(since: Instant?, until: Instant?)
    /// Everything.
    case all
}
