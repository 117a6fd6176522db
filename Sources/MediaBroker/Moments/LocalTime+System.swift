#if canImport(Glibc)
import Glibc
#endif
import BrokerCore

extension LocalTime {
    /// The process's time zone. The corresponding libc call is `localtime_r`.
    static let system = LocalTime { instant in
        var seconds = time_t(instant / 1_000_000)
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return 0 }
        return Microseconds(local.tm_gmtoff) * 1_000_000
    }
}
