/// When a listen counts — is heard long enough to become an asset.
package enum ListenRule: Sendable, Hashable {
    /// Last.fm's and ListenBrainz's rule: the track is longer than 30 s and was heard for half its
    /// length or 4 minutes, whichever comes first. Unknown length: heard for 30 s.
    case lastFM
    /// A flat threshold (`--min-listen`): heard for at least this many microseconds, whatever the
    /// length. A threshold of 0 still needs something heard.
    case minimum(Microseconds)

    /// The broker's default.
    package static let `default` = ListenRule.lastFM

    /// A flat threshold in seconds, as `--min-listen SECONDS` gives it; negative or not a number is
    /// 0, beyond a year is a year.
    package static func minimum(seconds: Double) -> ListenRule {
        guard seconds.isFinite, seconds > 0 else { return .minimum(0) }
        return .minimum(Microseconds((min(seconds, 365 * 86_400) * 1_000_000).rounded()))
    }

    /// Last.fm's numbers.
    static let lastFMShortestTrack: Microseconds = 30_000_000
    static let lastFMCap: Microseconds = 240_000_000
    static let lastFMUnknownLength: Microseconds = 30_000_000

    /// How much must be heard of a track of `length` (`nil`: unknown) to count; `nil` when no amount
    /// counts (a track of 30 s or less under the Last.fm rule). Listening time that reaches it
    /// qualifies: the caller schedules a checkpoint for that moment.
    package func threshold(length: Microseconds?) -> Microseconds? {
        switch self {
        case .lastFM:
            guard let length else { return Self.lastFMUnknownLength }
            guard length > Self.lastFMShortestTrack else { return nil }
            return min(length / 2, Self.lastFMCap)
        case .minimum(let threshold):
            return max(threshold, 0)
        }
    }

    /// Whether `listened` microseconds of a track of `length` count as a listen.
    func qualifies(listened: Microseconds, length: Microseconds?) -> Bool {
        guard let threshold = threshold(length: length) else { return false }
        return listened >= max(threshold, 1)
    }
}
