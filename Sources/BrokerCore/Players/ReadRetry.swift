/// When to read a player's object again after a read failed.
///
/// Some players own their MPRIS name before they export `/org/mpris/MediaPlayer2`: Firefox does so
/// ~45 ms early, so a read made as soon as the name appears fails with `UnknownMethod`
/// (mpris-quirks.md, web browsers). A failed read is asked again after 50 ms, then after twice as
/// long each time up to 2 s, for as long as ``patience`` has not passed since the first failure;
/// then the caller gives up and works with what it has. A read that does not answer at all (a
/// timeout) counts as a failure like any other, so a hung player is given up on after its third
/// timeout.
struct ReadRetry: Sendable {
    static let firstDelay: Microseconds = 50_000
    static let longestDelay: Microseconds = 2_000_000
    /// How long after the first failure reads are still tried (10 s).
    static let patience: Microseconds = 10_000_000

    private var firstFailure: Microseconds?
    private var nextDelay = ReadRetry.firstDelay

    /// A read failed at `now` (monotonic µs): how long to wait before asking again, or `nil` to
    /// give up.
    mutating func failed(at now: Microseconds) -> Microseconds? {
        let first = firstFailure ?? now
        firstFailure = first
        guard Clock.elapsed(from: first, to: now) < Self.patience else { return nil }
        defer { nextDelay = min(Clock.add(nextDelay, nextDelay), Self.longestDelay) }
        return nextDelay
    }
}
