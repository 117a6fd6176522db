#if canImport(Glibc)
public import Glibc
#endif

/// The monotonic clock, for deadlines that setting the wall clock must not move (timers, a query's
/// time budget, a commit window). The corresponding C call is `clock_gettime(CLOCK_MONOTONIC)`.
public enum MonotonicClock {
    public static var now: timespec {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return spec
    }

    /// Now, in microseconds since an arbitrary moment before it.
    public static var microseconds: Int64 {
        let spec = now
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }
}

extension timespec {
    /// This instant moved `duration` later, as `pthread_cond_timedwait` takes a deadline.
    /// `duration` must not be negative (callers pass bounded constants and windows).
    public func adding(_ duration: Duration) -> timespec {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int64(tv_nsec) + attoseconds / 1_000_000_000
        return timespec(tv_sec: tv_sec + Int(seconds + nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
