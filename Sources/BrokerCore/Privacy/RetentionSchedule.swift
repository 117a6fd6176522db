/// When retention runs next: after a run, when the oldest remaining asset expires — but at most
/// once an hour; with nothing to expire, not at all until an asset is stored. Pure.
package struct RetentionSchedule {
    /// Retention runs at most this often.
    static let interval: Microseconds = 3_600_000_000

    /// When the next run is due; `nil` when none is planned.
    private(set) var due: Microseconds?

    package init(due: Microseconds? = nil) {
        self.due = due
    }

    /// A run begins: nothing is planned until it ends.
    package mutating func running() {
        due = nil
    }

    /// A run that began at `ranAt` ended with `oldest` the oldest asset kept (`nil`: none); when
    /// the next is due, if any.
    package mutating func ran(at ranAt: Microseconds, oldest: Microseconds?, window: Microseconds) -> Microseconds? {
        guard let oldest else { return nil }
        due = max(ranAt + Self.interval, oldest + window)
        return due
    }

    /// An asset that started at `started` was stored at `now`; when a run is due, if none was planned.
    package mutating func stored(started: Microseconds, window: Microseconds?, now: Microseconds) -> Microseconds? {
        guard let window, due == nil else { return nil }
        due = max(now + Self.interval, started + window)
        return due
    }
}
