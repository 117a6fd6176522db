import SwiftDBus
import BrokerCore

extension RecentQuery {
    /// Reads `RecentMedia`'s `a{sv}` filter as the contract defines it.
    ///
    /// Integer keys take any D-Bus integer type whose value fits; a value of the wrong kind, out
    /// of range, or an unknown key is `InvalidArgs` with a message naming the key.
    init(filter: [String: DBusValue]) throws(BusError) {
        self.init(limit: BrokerContract.defaultLimit)
        for (key, value) in filter {
            switch key {
            case "since": since = try Self.instant(value, key)
            case "until": until = try Self.instant(value, key)
            case "limit":
                guard let limit = try? value.integer(as: Int.self), (1...BrokerContract.maximumLimit).contains(limit) else {
                    throw .invalidArgs("'limit' must be an integer from 1 to \(BrokerContract.maximumLimit)")
                }
                self.limit = limit
            case "app_id": appID = try Self.appID(value)
            case "before_id":
                guard let id = try? value.integer(as: Int64.self), id > 0 else {
                    throw .invalidArgs("'before_id' must be the positive id of an asset")
                }
                beforeID = id
            default:
                // Only the start of the key is echoed: an error reply must not grow with the input.
                throw .invalidArgs("unknown filter key '\(key.prefix(64))' (known: since, until, limit, app_id, before_id)")
            }
        }
        if let since, let until, since > until {
            throw .invalidArgs("'since' must not be after 'until'")
        }
    }

    /// A filter's instant: any integer type, microseconds since the epoch, not negative.
    static func instant(_ value: DBusValue, _ key: String) throws(BusError) -> Microseconds {
        guard let micros = try? value.integer(as: Int64.self), micros >= 0 else {
            throw .invalidArgs("'\(key)' must be a time in microseconds since the Unix epoch (a non-negative integer)")
        }
        return micros
    }

    /// A filter's `app_id`: a non-empty string of at most the contract's length.
    static func appID(_ value: DBusValue) throws(BusError) -> String {
        guard let app = try? value.string(), !app.isEmpty, app.utf8.count <= BrokerContract.maximumAppIDLength else {
            throw .invalidArgs("'app_id' must be a non-empty string of at most \(BrokerContract.maximumAppIDLength) bytes")
        }
        return app
    }
}

extension BusError {
    /// `before_id` names an asset the history does not hold (any more).
    static func unknownCursor(_ id: Int64) -> BusError {
        .invalidArgs("'before_id' \(id) names no asset in the history")
    }
}
