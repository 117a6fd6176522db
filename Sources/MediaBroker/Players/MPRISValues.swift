import SwiftDBus
import BrokerCore

// The MPRIS values players send, read as the broker's events: the wire's side of
// ``PlaybackStatus`` and ``PlayerEvent``, which themselves know nothing of D-Bus.

extension PlaybackStatus {
    /// The status an MPRIS `PlaybackStatus` value names: `Playing`, `Paused` or `Stopped`, in any
    /// letter case, surrounding whitespace ignored, inside any number of variants. Anything else —
    /// another word, another type — is `nil`: an unknown status, which the caller ignores (the last
    /// known status stays).
    init?(mpris value: DBusValue) {
        guard case .string(let text) = value.unwrapped else { return nil }
        self.init(mpris: text)
    }
}

extension PlayerEvent {
    /// The event for an MPRIS `PlaybackStatus` value; `nil` for an unknown status.
    static func playbackStatus(mpris value: DBusValue) -> PlayerEvent? {
        PlaybackStatus(mpris: value).map(PlayerEvent.playbackStatus)
    }

    /// The event for an MPRIS `Metadata` value, decoded leniently (``TrackMetadata/decode(_:)-(DBusValue)``).
    static func metadata(mpris value: DBusValue) -> PlayerEvent {
        .metadata(TrackMetadata.decode(value))
    }

    /// The event for an MPRIS `Rate` value: a `d`, any integer type or a numeric string; `nil` for
    /// anything else.
    static func rate(mpris value: DBusValue) -> PlayerEvent? {
        switch value.unwrapped {
        case .double(let rate): return .rate(rate)
        case .byte, .int16, .uint16, .int32, .uint32, .int64, .uint64:
            return (try? value.integer(as: Int64.self)).map { .rate(Double($0)) }
        case .string(let text):
            guard text.utf8.count <= 40 else { return nil }
            return Double(BoundedText.trimmed(text[...])).map(PlayerEvent.rate)
        default: return nil
        }
    }

    /// The event for the argument of a `Seeked` signal (`x` µs; any integer type or a numeric string
    /// is read); `nil` for anything else.
    static func seeked(mpris value: DBusValue) -> PlayerEvent? {
        TrackMetadata.microseconds(value).map { .seeked(position: $0) }
    }
}
