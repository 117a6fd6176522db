import SwiftDBus
import BrokerCore

/// Reading a player's properties from the wire: in one pass over a dictionary's entries where they
/// lie (``take(_:_:)``), as ``DBusValue/vardict()`` would take them — a key sent twice keeps its last
/// value, one variant wrapper is removed. A `GetAll` reply's are read the same way.
extension PlayerProperties {
    /// Those of a `GetAll` reply, each entry taken by ``take(_:_:)`` as a signal's are, and its
    /// `Position`.
    init(_ properties: [String: DBusValue]) {
        self.init()
        try? DBusValue.vardict(properties).read { (value: inout ValueReader) throws(MarshallingError) in
            _ = try value.entries { name, entry throws(MarshallingError) in try take(name, &entry) }
        }
        position = properties[Self.positionName].flatMap(TrackMetadata.microseconds)
    }

    /// Takes one entry of a dictionary of properties (`a{sv}`); other properties, and `Position`,
    /// are stepped over.
    mutating func take(_ name: borrowing EntryKey, _ value: inout ValueReader) throws(MarshallingError) {
        // The names as static text, as ``TrackMetadata``'s keys are matched
        // (PropertiesChangedReadingTests checks they spell the names above).
        if name.equals("Metadata") {
            metadata = try TrackMetadata.decode(reading: &value)
        } else if name.equals("PlaybackStatus") {
            playbackStatus = Self.reported(PlaybackStatus(mpris: try value.value()))
        } else if name.equals("Rate") {
            let event = PlayerEvent.rate(mpris: try value.value())
            rate = if case .rate(let rate)? = event { .value(rate) } else { .unreadable }
        }
    }

    private static func reported<Value>(_ value: Value?) -> Reported<Value> {
        value.map { .value($0) } ?? .unreadable
    }
}
