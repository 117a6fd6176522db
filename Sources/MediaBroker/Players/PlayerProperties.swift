import SwiftDBus

/// The properties of `org.mpris.MediaPlayer2.Player` the tracker follows, as a signal or a read
/// reported them: each `nil` when it was not there. `Metadata` arrives decoded (``TrackMetadata``);
/// the status and rate stay raw, a short value each, for their events to read.
///
/// Read in one pass over a dictionary's entries where they lie (``take(_:_:)``), as
/// ``DBusValue/vardict()`` would take them: a key sent twice keeps its last value, one variant
/// wrapper is removed. A `GetAll` reply's are read the same way.
struct PlayerProperties {
    var metadata: TrackMetadata?
    var playbackStatus: DBusValue?
    var rate: DBusValue?
    /// Only from a read: `Position` never signals.
    var position: DBusValue?

    /// The names, as MPRIS spells them.
    static let metadataName = "Metadata"
    static let playbackStatusName = "PlaybackStatus"
    static let rateName = "Rate"
    static let positionName = "Position"

    /// None yet: a signal's are taken one entry at a time.
    init() {}

    /// Those of a `GetAll` reply, each entry taken by ``take(_:_:)`` as a signal's are, and its
    /// `Position`.
    init(_ properties: [String: DBusValue]) {
        try? DBusValue.vardict(properties).read { (value: inout ValueReader) throws(MarshallingError) in
            _ = try value.entries { name, entry throws(MarshallingError) in try take(name, &entry) }
        }
        position = properties[Self.positionName]
    }

    /// Takes one entry of a dictionary of properties (`a{sv}`); other properties, and `Position`,
    /// are stepped over.
    mutating func take(_ name: borrowing EntryKey, _ value: inout ValueReader) throws(MarshallingError) {
        // The names as static text, as ``TrackMetadata``'s keys are matched
        // (PropertiesChangedReadingTests checks they spell the names above).
        if name.equals("Metadata") {
            metadata = try TrackMetadata.decode(reading: &value)
        } else if name.equals("PlaybackStatus") {
            playbackStatus = try value.value()
        } else if name.equals("Rate") {
            rate = try value.value()
        }
    }

    /// Whether `name` is one of these properties and this report left it out.
    func lacks(_ name: String) -> Bool {
        switch name {
        case Self.metadataName: metadata == nil
        case Self.playbackStatusName: playbackStatus == nil
        case Self.rateName: rate == nil
        default: false
        }
    }
}
