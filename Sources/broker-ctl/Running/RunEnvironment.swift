import FoundationEssentials
import MediaDonationClient

/// Everything a command touches outside itself. The live one talks to the process and the bus;
/// tests build one with captured output, a fixed clock and a fake broker.
struct RunEnvironment: Sendable {
    /// Looks up one variable of the process environment (`COLUMNS` and, later, anything else
    /// commands read). A lookup, not a dictionary of the whole environment: most runs read nothing.
    var variable: @Sendable (String) -> String?
    /// The moment the command runs; relative times such as `2h` count back from it.
    var now: Date
    /// The person's local time zone, for reading and printing wall-clock times.
    var timeZone: any UTCOffsetRule
    var standardOutput: TextWriter
    var standardError: TextWriter
    /// Called only by commands that need the broker, so `--help` works without a bus.
    var connectToBroker: @Sendable () throws(MediaBrokerError) -> any BrokerService
    /// Width of the terminal standard output goes to, when it goes to one.
    var terminalColumns: Int?
    /// Standard input is a terminal, so a person can answer a question (`isatty(0)`).
    var standardInputIsTerminal = false
    /// Reads one line a person typed on standard input, without its newline; nil at end of input.
    var readLine: @Sendable () -> String? = { nil }
    /// Starts watching for SIGINT and SIGTERM: each one received from now on is yielded, until
    /// the stream is dropped (which restores the default behaviour). Commands that run until
    /// stopped (`follow`) use it to exit cleanly; tests yield by hand.
    var stopSignals: @Sendable () -> AsyncStream<Int32> = { AsyncStream { $0.finish() } }

    /// How wide human output may be: `COLUMNS` wins (people set it to force a width), then the
    /// terminal's own width, then 100 when the output is a file or pipe.
    var outputWidth: Int {
        if let columns = variable("COLUMNS").flatMap({ Int($0) }), columns > 0 {
            return columns
        }
        return terminalColumns ?? 100
    }
}

/// A destination for text, such as standard output or a test's buffer.
struct TextWriter: Sendable {
    private let writeText: @Sendable (String) -> Void

    init(_ writeText: @escaping @Sendable (String) -> Void) {
        self.writeText = writeText
    }

    func write(_ text: String) {
        writeText(text)
    }
}
