public import SwiftDBus

/// Something that happened to one player, as the D-Bus wiring sees it, or a request about it.
public enum PlayerEvent: Sendable, Hashable {
    /// `PlaybackStatus` was read or signalled.
    case playbackStatus(PlaybackStatus)
    /// `Metadata` was read or signalled (the whole value: each one replaces the last, quirk 7).
    case metadata(TrackMetadata)
    /// `PlaybackStatus` Playing, read when the broker first met the player, which has been playing
    /// since that moment by its `Position` (issue 17: Chromium's name appears ~2.7 s after its
    /// audio starts). A listen begun by this event begins then — never later than now; otherwise
    /// it is ``playbackStatus(_:)`` Playing.
    case playingSince(Microseconds)
    /// `Position` was read (it never signals), in microseconds. With ``seeked(position:)`` it tells
    /// where the track is: Paused within a second of its end ends the listen (a finished `<audio>`
    /// in Firefox stays Paused at its end while the tab lives).
    case position(Microseconds)
    /// `Rate` was read or signalled. Not a number: ignored; ≤ 0: the clock stands still (MPRIS says
    /// a rate of 0 means paused; reverse play is not listening); above
    /// ``PlayerListening/maximumRate``: that maximum.
    case rate(Double)
    /// The player's `Seeked` signal, with its new position in microseconds. A seek adds nothing;
    /// back to near the start after a qualifying listen, it starts a new listen (quirk 22); to
    /// the end while Paused, it ends the listen.
    case seeked(position: Microseconds)
    /// Time passed: the moment ``PlayerListening/nextDeadline(at:)`` asked for.
    case tick
    /// The player's unique name left the bus (or a new owner took its well-known name, quirk 15).
    case playerGone
    /// The broker is shutting down: end the listen in progress as if the player stopped.
    case brokerStopping
    /// The player turned out to be another app (its identity was read again): a listen in
    /// progress that was written is written again, so the record carries the final identity.
    case appChanged
    /// Forget the listen in progress without recording it (the app was opted out, Media was
    /// switched off). The track playing now is not recorded; the next listen is.
    case discard
}

extension PlayerEvent {
    /// The event for an MPRIS `PlaybackStatus` value; `nil` for an unknown status.
    public static func playbackStatus(mpris value: DBusValue) -> PlayerEvent? {
        PlaybackStatus(mpris: value).map(PlayerEvent.playbackStatus)
    }

    /// The event for an MPRIS `Metadata` value, decoded leniently (``TrackMetadata/decode(_:)-(DBusValue)``).
    public static func metadata(mpris value: DBusValue) -> PlayerEvent {
        .metadata(TrackMetadata.decode(value))
    }

    /// The event for an MPRIS `Rate` value: a `d`, any integer type or a numeric string; `nil` for
    /// anything else.
    public static func rate(mpris value: DBusValue) -> PlayerEvent? {
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
    public static func seeked(mpris value: DBusValue) -> PlayerEvent? {
        TrackMetadata.microseconds(value).map { .seeked(position: $0) }
    }
}
