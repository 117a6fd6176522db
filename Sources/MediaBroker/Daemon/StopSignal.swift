#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGTERM, SIGINT and "the bus went away" into one thing the main thread waits for.
///
/// A signal handler may only do async-signal-safe work, so it writes the signal's number to a
/// pipe (the self-pipe trick) and the main thread reads it.
enum StopSignal {
    /// Why the daemon stops.
    enum Reason: Sendable, Equatable {
        case signal(Int32)
        case busLost
    }

    // Written once in `install` before any thread starts, then only read (by signal handlers).
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) private static var readEnd: Int32 = -1
    private static let busLostByte: UInt8 = 255

    /// Installs the handlers. Call once, first thing in `main`.
    static func install() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(StopSignal.writeEnd, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
        // A closed pipe to a client must be an error on that write, not the end of the daemon.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Called from any thread when the bus connection is lost.
    static func busLost() {
        var byte = busLostByte
        _ = write(writeEnd, &byte, 1)
    }

    /// Blocks until a stop is requested.
    static func wait() -> Reason {
        var byte: UInt8 = 0
        while true {
            let count = read(readEnd, &byte, 1)
            if count == 1 { return byte == busLostByte ? .busLost : .signal(Int32(byte)) }
            if count < 0 && errno == EINTR { continue }
            return .busLost
        }
    }
}
