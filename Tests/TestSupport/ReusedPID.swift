// A process started on a pid of the test's choosing: what an attacker gets by spending pids.

#if canImport(Glibc)
import Glibc
#endif

/// Starts a process on a given pid, as an app that forks until the kernel hands a freed pid to
/// someone else would see it happen (issue 32) — in a blink, as root, by writing the pid before
/// it to `/proc/sys/kernel/ns_last_pid` (the kernel gives the next free pid after it).
public enum ReusedPID {
    static let lastPID = "/proc/sys/kernel/ns_last_pid"

    /// Whether this test may choose the next pid (root in the pid namespace).
    public static var isPossible: Bool { access(lastPID, W_OK) == 0 }

    /// Launches `program` on `pid`, which must be free; other processes forking at the same moment
    /// may take it first, so it tries again, at most `attempts` times.
    public static func launch(_ program: String, arguments: [String], on pid: Int32, attempts: Int = 200) throws -> ChildProcess {
        for _ in 0..<attempts {
            try setLastPID(pid - 1)
            let child = try ChildProcess.launch(program, arguments: arguments)
            if child.pid == pid { return child }
            child.signal(SIGKILL)
            _ = try? child.waitForExit(timeout: .seconds(5))
        }
        throw TestSupportError("no process could be started on pid \(pid) in \(attempts) attempts")
    }

    private static func setLastPID(_ pid: Int32) throws {
        let descriptor = open(lastPID, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TestSupportError("\(lastPID) cannot be opened for writing: errno \(errno)") }
        defer { close(descriptor) }
        let text = Array(String(pid).utf8)
        guard write(descriptor, text, text.count) == text.count else { throw TestSupportError("\(lastPID) refused \(pid): errno \(errno)") }
    }
}
