#if canImport(Glibc)
import Glibc
#endif

/// The daemon's standard error, written as is: the log's lines, and what a person who typed a
/// wrong command reads.
enum StandardError {
    /// Writes `text` whole, in as few write(2) calls as the pipe takes, so that text from
    /// different threads never interleaves within a line.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
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
