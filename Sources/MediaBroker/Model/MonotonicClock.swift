#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock, for deadlines that setting the wall clock must not move (a query's time
/// budget, a commit window). The corresponding C call is `clock_gettime(CLOCK_MONOTONIC)`.
enum MonotonicClock {
    static var now: timespec {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return spec
    }

    static var microseconds: Int64 {
        let spec = now
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }
}

extension timespec {
    /// This instant moved `duration` later, as `pthread_cond_timedwait` takes a deadline.
    /// `duration` must not be negative (callers pass bounded constants and windows).
    func adding(_ duration: Duration) -> timespec {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int64(tv_nsec) + attoseconds / 1_000_000_000
        return timespec(tv_sec: tv_sec + Int(seconds + nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}

extension Duration {
    /// The duration in whole microseconds, rounded down.
    var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
