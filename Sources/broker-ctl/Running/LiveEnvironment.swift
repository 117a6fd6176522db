import FoundationEssentials
internal import Glibc

extension RunEnvironment {
    /// The environment of the running process: its variables, clock, local time zone, standard
    /// streams and the broker on the session bus.
    static func live() -> RunEnvironment {
        RunEnvironment(
            variable: { name in getenv(name).map { String(cString: $0) } },
            now: currentTime(),
            timeZone: SystemTimeZone(),
            standardOutput: TextWriter(fileDescriptor: STDOUT_FILENO),
            standardError: TextWriter(fileDescriptor: STDERR_FILENO),
            connectToBroker: connectToLiveBroker,
            terminalColumns: terminalColumns(of: STDOUT_FILENO),
            standardInputIsTerminal: isatty(STDIN_FILENO) == 1,
            readLine: { Swift.readLine(strippingNewline: true) },
            stopSignals: { StopSignals.watch([SIGINT, SIGTERM]) })
    }

    /// The wall clock, from `clock_gettime` rather than `Date()`: `Date()` and `ProcessInfo` are
    /// the only parts of FoundationEssentials broker-ctl would otherwise link, and with them
    /// most of it (see ``UTCOffsetRule``).
    private static func currentTime() -> Date {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Date(timeIntervalSince1970: Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
    }

    private static func terminalColumns(of fileDescriptor: Int32) -> Int? {
        var size = winsize()
        guard isatty(fileDescriptor) == 1, ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0,
            size.ws_col > 0
        else { return nil }
        return Int(size.ws_col)
    }
}

extension TextWriter {
    /// Writes straight to a file descriptor. Unbuffered on purpose: commands hand over their whole
    /// output at once, and nothing is lost if the process exits right after.
    init(fileDescriptor: Int32) {
        self.init { text in
            var text = text
            text.withUTF8 { buffer in
                guard let start = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(fileDescriptor, start + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return  // A closed pipe or full disk: nothing useful left to do with the rest.
                    }
                    offset += written
                }
            }
        }
    }
}
