#if canImport(Glibc)
import Glibc
#endif

/// The wall clock in the contract's unit: microseconds since the Unix epoch.
public enum WallClock {
    public static var now: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }
}
