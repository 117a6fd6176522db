internal import Glibc

/// Time since boot in the kernel's clock ticks (`USER_HZ`, normally 100 a second): the unit in
/// which `/proc/PID/stat` gives a process's start, so a start and a moment the broker noted compare
/// directly. Both follow the reader's time namespace, so they agree inside a container too.
enum BootClock {
    typealias Ticks = UInt64

    /// Ticks in a second, as the C library reports them.
    ///
    /// The corresponding C call is `sysconf(_SC_CLK_TCK)`.
    static let ticksPerSecond: UInt64 = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))

    /// Now, in ticks since boot (rounded down, as the kernel rounds a process's start).
    ///
    /// The corresponding C call is `clock_gettime(CLOCK_BOOTTIME)`.
    static func now() -> Ticks {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return UInt64(time.tv_sec) * ticksPerSecond + UInt64(time.tv_nsec) * ticksPerSecond / 1_000_000_000
    }

    /// When the process whose `/proc` entry is `directory` started, in ticks since boot; nil when
    /// it is gone or its `stat` file reads unlike the kernel's.
    static func start(ofProcessAt directory: String) -> Ticks? {
        guard let bytes = AppFiles.read(directory + "/stat", limit: 4096) else { return nil }
        return start(inStat: bytes)
    }

    /// Field 22 of a `/proc/PID/stat` text (`starttime`). The second field, the command name in
    /// parentheses, may hold spaces and parentheses of the process's choosing: the fields are
    /// counted from the last `)`.
    static func start(inStat bytes: [UInt8]) -> Ticks? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        // fields[0] is field 3 (the state), so field 22 is fields[19].
        guard fields.count > 19 else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }
}
