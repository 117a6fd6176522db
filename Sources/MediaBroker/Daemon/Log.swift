#if canImport(Glibc)
import Glibc
#endif

/// The daemon's log: one line per event on stderr. When stderr is the journal (`JOURNAL_STREAM`
/// is set, as systemd does for services), each line starts with an sd-daemon priority prefix
/// (`<3>` … `<7>`) so the journal files it at the right level.
///
/// Titles and artists are private: they are logged at debug level only.
public struct Log: Sendable {
    public enum Level: Int32, Sendable, Comparable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// The least important level still written.
    public var threshold: Level
    public var prefixesPriority: Bool

    public init(threshold: Level = .info, environment: [String: String]) {
        self.threshold = threshold
        self.prefixesPriority = environment["JOURNAL_STREAM"] != nil
    }

    public func error(_ message: @autoclosure () -> String) { write(.error, message) }
    public func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public func notice(_ message: @autoclosure () -> String) { write(.notice, message) }
    public func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    private func write(_ level: Level, _ message: () -> String) {
        guard level <= threshold else { return }
        // One line per event: a newline inside a message would split it in the journal.
        let text = message().split(whereSeparator: \.isNewline).joined(separator: " ")
        let line = (prefixesPriority ? "<\(level.rawValue)>" : "media-broker: ") + text + "\n"
        // One write(2) per line, so lines from different threads never interleave.
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return Glibc.write(2, base + offset, buffer.count - offset)
            }
            if written <= 0 { break }
            offset += written
        }
    }
}
