import SwiftDBus

/// The properties of `org.mpris.MediaPlayer2.Player` the tracker follows, as a signal or a read
/// reported them: each `nil` when it was not there.
///
/// Read from a signal's `a{sv}` in one pass over its entries, as ``DBusValue/vardict()`` would take
/// them (a key sent twice keeps its last value; one variant wrapper removed), without building a
/// dictionary of every property first: hashing the names was ~3k instructions of every track
/// change (callgrind, bench track changes).
struct PlayerProperties {
    var metadata: DBusValue?
    var playbackStatus: DBusValue?
    var rate: DBusValue?

    /// The names, as MPRIS spells them.
    static let metadataName = "Metadata"
    static let playbackStatusName = "PlaybackStatus"
    static let rateName = "Rate"

    /// Those of a `GetAll` reply.
    init(_ properties: [String: DBusValue]) {
        metadata = properties[Self.metadataName]
        playbackStatus = properties[Self.playbackStatusName]
        rate = properties[Self.rateName]
    }

    /// Those of an `a{sv}` (a `PropertiesChanged` signal's changed properties); none when the value
    /// is not a string-keyed dictionary.
    init(vardict value: DBusValue) {
        guard case .dictionary(let keyType, _, let entries) = value.unwrapped, keyType == .string || keyType == .objectPath
        else { return }
        for entry in entries {
            guard let name = try? entry.key.string() else { continue }
            let value: DBusValue
            if case .variant(let inner) = entry.value { value = inner } else { value = entry.value }
            switch name {
            case Self.metadataName: metadata = value
            case Self.playbackStatusName: playbackStatus = value
            case Self.rateName: rate = value
            default: continue
            }
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
