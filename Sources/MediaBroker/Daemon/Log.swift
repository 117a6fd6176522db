#if canImport(Glibc)
import Glibc
#endif
import BrokerCore

/// The daemon's log: one line per event on stderr. When stderr is the journal, each line starts
/// with an sd-daemon priority prefix (`<3>` … `<7>`) so the journal files it at the right level;
/// otherwise lines start with `media-broker: `. See ``stderrIsJournal(environment:)`` for how the
/// journal is recognised.
///
/// Titles and artists are private: they are logged at debug level only.
struct Log: Sendable {
    /// The least important level still written.
    var threshold: LogLevel
    var prefixesPriority: Bool

    init(threshold: LogLevel = .info, environment: [String: String]) {
        self.threshold = threshold
        self.prefixesPriority = Self.stderrIsJournal(environment: environment)
    }

    /// Whether standard error is a stream to systemd-journald. Either
    /// - `JOURNAL_STREAM` (`DEVICE:INODE`, which systemd sets for a service and recent `systemd-cat`
    ///   for its command) names the very file standard error is: systemd.exec(5) asks programs to
    ///   compare, because the variable is inherited by every child of a service (a terminal started
    ///   as a user unit passes it to its shells) while their standard error is somewhere else; or
    /// - standard error is a socket connected to journald's stream socket
    ///   `/run/systemd/journal/stdout`, as under `systemd-cat` of systemd 252 (Debian 12), which
    ///   does not set `JOURNAL_STREAM`.
    ///
    /// The corresponding libc calls are `fstat` and `getpeername` on file descriptor 2.
    static func stderrIsJournal(environment: [String: String]) -> Bool {
        var info = stat()
        guard fstat(2, &info) == 0 else { return false }
        if let stream = environment["JOURNAL_STREAM"] {
            let parts = stream.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]),
                UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode
            {
                return true
            }
        }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else { return false }
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let peer = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(2, $0, &length) }
        }
        guard peer == 0, address.sun_family == sa_family_t(AF_UNIX) else { return false }
        let path = withUnsafeBytes(of: address.sun_path) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return path == "/run/systemd/journal/stdout"
    }

    func error(_ message: @autoclosure () -> String) { write(.error, message()) }
    func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
    func notice(_ message: @autoclosure () -> String) { write(.notice, message()) }
    func info(_ message: @autoclosure () -> String) { write(.info, message()) }
    func debug(_ message: @autoclosure () -> String) { write(.debug, message()) }

    func write(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level <= threshold else { return }
        // One line per event: a newline inside a message would split it in the journal.
        let text = message().split(whereSeparator: \.isNewline).joined(separator: " ")
        let line = (prefixesPriority ? "<\(level.rawValue)>" : "media-broker: ") + text + "\n"
        StandardError.write(line)
    }
}
