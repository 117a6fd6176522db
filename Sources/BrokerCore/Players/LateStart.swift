/// When a player the broker met already playing began (issue 17 §4). Chromium's MPRIS name
/// appears ~2.7 s after its audio starts, with a `Seeked` telling where it is: counted from the
/// name, the listen would be short by that much.
///
/// A player's first Playing within ``window`` of the broker meeting it, at a known position, began
/// `position / rate` earlier — never in the future, never for a position at the track's end (a
/// player repeating where the previous track ended) or beyond ``longest`` of playing (a player that appears at minute 20 of a podcast resumed where
/// it was left; it did not play 20 minutes unseen), and never before the broker began following
/// the bus (what played before was the previous run's to record). Later on, Playing at a position
/// is only a resume or a seek.
enum LateStart {
    /// A first Playing this soon after the broker met the player was already going on.
    static let window: Microseconds = 2_000_000
    /// The longest a player can have played unseen.
    static let longest: Microseconds = 10_000_000

    /// When the player began, or `nil` when its first Playing began now. `metAt`: when the broker
    /// began following the player; `followingSince`: when it began following the bus.
    static func began(
        position: Microseconds?, rate: Double, length: Microseconds?, metAt: Microseconds, followingSince: Microseconds,
        now: Microseconds
    ) -> Microseconds? {
        guard Clock.elapsed(from: metAt, to: now) <= window, let position, position > 0, rate > 0,
              position < Clock.add(length ?? TrackMetadata.Limits.maximumLength, -PlayerListening.endOfTrackWindow),
              Double(position) / rate <= Double(longest)
        else { return nil }
        return max(Clock.add(now, -Clock.microseconds(Double(position) / rate)), min(followingSince, now))
    }
}
