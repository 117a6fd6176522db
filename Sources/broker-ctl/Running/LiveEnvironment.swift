import FoundationEssentials
internal import Glibc

extension RunEnvironment {
    /// The environment of the running process: its variables, clock, local time zone, standard
    /// streams and the broker on the session bus.
    static func live() -> RunEnvironment {
        RunEnvironment(
            variables: ProcessInfo.processInfo.environment,
            now: Date(),
            timeZone: SystemTimeZone(),
            standardOutput: TextWriter(fileDescriptor: STDOUT_FILENO),
            standardError: TextWriter(fileDescriptor: STDERR_FILENO),
            connectToBroker: connectToLiveBroker,
            terminalColumns: terminalColumns(of: STDOUT_FILENO),
            standardInputIsTerminal: isatty(STDIN_FILENO) == 1,
            readLine: { Swift.readLine(strippingNewline: true) },
            stopSignals: { StopSignals.watch([SIGINT, SIGTERM]) })
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
