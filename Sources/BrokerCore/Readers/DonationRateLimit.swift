/// How fast a sandboxed app may donate, so no app can flood the person's history: a burst of
/// ``burst`` at once, then one every ``interval`` (a token bucket per app id). Host processes are
/// not limited. Pure: the caller gives the time.
package struct DonationRateLimit {

    package init() {}
    package static let burst = 20
    static let interval: Microseconds = 1_000_000
    /// Apps remembered at most; full buckets are forgotten first (they hold nothing to remember).
    static let maximumApps = 256

    private var buckets: [String: (tokens: Int, refilled: Microseconds)] = [:]

    /// Takes one donation of `appID` at `now`; `false` when its bucket is empty.
    package mutating func take(_ appID: String, at now: Microseconds) -> Bool {
        var bucket = buckets[appID] ?? (Self.burst, now)
        if now > bucket.refilled {
            let earned = (now - bucket.refilled) / Self.interval
            bucket.tokens = min(Self.burst, bucket.tokens + Int(clamping: earned))
            bucket.refilled = bucket.tokens == Self.burst ? now : bucket.refilled + earned * Self.interval
        }
        guard bucket.tokens > 0 else {
            buckets[appID] = bucket
            return false
        }
        bucket.tokens -= 1
        buckets[appID] = bucket
        if buckets.count > Self.maximumApps { forgetFull(at: now) }
        return true
    }

    var rememberedApps: Int { buckets.count }

    private mutating func forgetFull(at now: Microseconds) {
        buckets = buckets.filter { _, bucket in
            bucket.tokens + Int(clamping: max(0, now - bucket.refilled) / Self.interval) < Self.burst
        }
    }
}
