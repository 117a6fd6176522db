@testable import MediaBroker
@testable import BrokerCore

/// The processes of a fake `/proc`: each started at ``started`` (in ``BootClock`` ticks) and each
/// made the connection it is asked about, born at ``born``.
enum FakeProcess {
    static let started: UInt64 = 500
    static let born: UInt64 = 1_000

    /// The connection whose process is fake process `pid`.
    static func connected(_ pid: UInt32) -> ConnectedProcess { ConnectedProcess(processID: pid, startedBy: born) }

    /// A `stat` line as the kernel writes it: the command in parentheses (which may hold spaces and
    /// parentheses of the process's choosing), then the state and fields 4…52; the start is field 22.
    static func stat(pid: UInt32, command: String = "app", started: UInt64 = started) -> String {
        let before = ["S", "1", String(pid), String(pid), "0", "-1", "4194560", "100", "0", "0", "0", "7", "3", "0", "0", "20", "0", "1", "0"]
        let after = ["123456789", "4096"] + Array(repeating: "0", count: 29)
        return "\(pid) (\(command)) " + (before + [String(started)] + after).joined(separator: " ") + "\n"
    }

    /// The pid of a fake process entry path `<pid>/…` relative to the fake `/proc`, if it is one.
    static func processID(ofEntry relative: Substring) -> UInt32? {
        relative.split(separator: "/").first.flatMap { UInt32($0) }
    }
}
