/// The properties of `org.mpris.MediaPlayer2.Player` the tracker follows, as a signal or a read
/// reported them, read as the broker's values: each `nil` when the report left it out, and
/// ``Reported/unreadable`` when it was there but said nothing the broker can use (a status that is
/// no status, a rate that is no number). How they are read from the wire: `PlayerProperties+Reading.swift`.
package struct PlayerProperties: Equatable, Sendable {
    /// A property a report carried: its value, or that it was there but unreadable.
    package enum Reported<Value: Equatable & Sendable>: Equatable, Sendable {
        case value(Value)
        case unreadable

        var value: Value? { if case .value(let value) = self { value } else { nil } }
    }

    package var metadata: TrackMetadata?
    package var playbackStatus: Reported<PlaybackStatus>?
    package var rate: Reported<Double>?
    /// Only from a read: `Position` never signals.
    package var position: Microseconds?

    /// The names, as MPRIS spells them.
    static let metadataName = "Metadata"
    static let playbackStatusName = "PlaybackStatus"
    static let rateName = "Rate"
    package static let positionName = "Position"

    /// None yet: a signal's are taken one entry at a time.
    package init() {}

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
