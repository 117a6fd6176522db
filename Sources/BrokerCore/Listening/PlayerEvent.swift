/// Something that happened to one player, as its MPRIS properties and signals tell it, or a
/// request about it. (The events MPRIS values make: `MPRISValues.swift`.)
package enum PlayerEvent: Sendable, Hashable {
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
