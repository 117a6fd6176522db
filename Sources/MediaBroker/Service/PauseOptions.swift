import SwiftDBus
import BrokerCore

extension PauseRequest {
    /// Reads `Pause`'s options: `duration` x (µs) or `until` x (µs since the epoch), not both;
    /// neither pauses until `Resume`. Any other key is InvalidArgs.
    init(options: [String: DBusValue]) throws(BusError) {
        if let unknown = options.keys.sorted().first(where: { $0 != "duration" && $0 != "until" }) {
            throw .invalidArgs("unknown option '\(unknown.prefix(64))' (known: duration, until)")
        }
        switch (options["duration"], options["until"]) {
        case (nil, nil):
            self = .untilResumed
        case (let duration?, nil):
            guard let microseconds = try? duration.integer(as: Int64.self) else {
                throw .invalidArgs("'duration' must be an integer of microseconds")
            }
            self = .lasting(microseconds)
        case (nil, let until?):
            self = .until(try RecentQuery.instant(until, "until"))
        case (.some, .some):
            throw .invalidArgs("give 'duration' or 'until', not both")
        }
    }
}
