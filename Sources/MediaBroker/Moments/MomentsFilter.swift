import SwiftDBus
import BrokerCore

extension MomentsQuery {
    /// Reads `Moments`' `a{sv}` filter as the contract defines it (docs/dbus-api.md): `since`,
    /// `until`, `gap` (x µs), `limit` (u), `app_id` (s), `before` (s, a moment's `id`), `on_this_day` (x). Integer keys
    /// take any D-Bus integer type whose value fits; anything else is `InvalidArgs` naming the key.
    init(filter: [String: DBusValue]) throws(BusError) {
        self.init()
        for (key, value) in filter {
            switch key {
            case "since": since = try RecentQuery.instant(value, key)
            case "until": until = try RecentQuery.instant(value, key)
            case "limit":
                guard let limit = try? value.integer(as: Int.self), (1...Self.maximumLimit).contains(limit) else {
                    throw .invalidArgs("'limit' must be an integer from 1 to \(Self.maximumLimit)")
                }
                self.limit = limit
            case "gap":
                guard let gap = try? value.integer(as: Int64.self), MomentGrouping.gaps.contains(gap) else {
                    throw .invalidArgs("'gap' must be from \(MomentGrouping.gaps.lowerBound) µs (1 minute) to \(MomentGrouping.gaps.upperBound) µs (6 hours)")
                }
                self.gap = gap
            case "app_id": appID = try RecentQuery.appID(value)
            case "before":
                guard let text = try? value.string(), let id = Int64(text), id > 0 else {
                    throw .invalidArgs("'before' must be the id of a moment, as Moments gave it")
                }
                before = id
            case "on_this_day": onThisDay = try RecentQuery.instant(value, key)
            default:
                throw .invalidArgs("unknown filter key '\(key.prefix(64))' (known: since, until, limit, gap, app_id, before, on_this_day)")
            }
        }
        if let since, let until, since > until { throw .invalidArgs("'since' must not be after 'until'") }
        if onThisDay != nil, since != nil || until != nil || before != nil {
            throw .invalidArgs("'on_this_day' chooses the days itself: it cannot be given with 'since', 'until' or 'before'")
        }
    }
}

