import SwiftDBus
import AssetContract
import BrokerCore

extension PurgeScope {
    /// Reads `Purge`'s filter: `app_id` s, `site` s, `since`/`until` x (either or both), or `all` b true.
    /// Exactly one kind of scope; an empty filter is InvalidArgs.
    init(filter: [String: DBusValue]) throws(BusError) {
        if let unknown = filter.keys.sorted().first(where: { !["app_id", "site", "since", "until", "all"].contains($0) }) {
            throw .invalidArgs("unknown filter key '\(unknown.prefix(64))' (known: app_id, site, since, until, all)")
        }
        let hasRange = filter["since"] != nil || filter["until"] != nil
        let kinds = [filter["app_id"] != nil, filter["site"] != nil, hasRange, filter["all"] != nil].filter { $0 }.count
        guard kinds == 1 else { throw .invalidArgs("give exactly one of 'app_id', 'site', a 'since'/'until' range, or 'all'") }
        if let value = filter["app_id"] {
            guard let app = try? value.string(), !app.isEmpty else { throw .invalidArgs("'app_id' must be a non-empty string") }
            self = .app(app)
        } else if let value = filter["site"] {
            guard let text = try? value.string(), let site = AssetContract.site(normalizing: text) else {
                throw .invalidArgs("'site' must be a host name, like example.com")
            }
            self = .site(site)
        } else if let value = filter["all"] {
            guard case .boolean(true) = value.unwrapped else { throw .invalidArgs("'all' must be the boolean true") }
            self = .all
        } else {
            let since = try filter["since"].map { value throws(BusError) in try RecentQuery.instant(value, "since") }
            let until = try filter["until"].map { value throws(BusError) in try RecentQuery.instant(value, "until") }
            if let since, let until, since > until { throw .invalidArgs("'since' must not be after 'until'") }
            self = .range(since: since, until: until)
        }
    }
}
