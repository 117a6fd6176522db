internal import Glibc

/// Reading a file whose path came from someone else (a player, an app, a theme): it may name a
/// FIFO that never answers, a device, or something huge. Such a file reads as absent; the read
/// never waits for a writer and never holds more than its bound.
public enum BoundedFile {
    /// The contents of the regular file at `path`, or nil when it is missing, not a regular file,
    /// unreadable or larger than `limit` bytes. Works for `/proc` files, whose size `stat` reports
    /// as 0: the bound is enforced while reading. Blocks on the file system (a slow mount), so
    /// a caller with a loop to keep calls it from another thread.
    ///
    /// The corresponding C calls are `open` (non-blocking, so a FIFO planted under a name cannot
    /// hang the caller), `fstat`, `read` and `close`.
    public static func read(_ path: String, limit: Int) -> [UInt8]? {
        read(opened: open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), limit: limit)
    }

    /// The contents of `descriptor` (closed here; `-1`, a failed open, reads as absent) under the
    /// same rules, for a caller that opened the file its own careful way (`O_NOFOLLOW`, `openat`).
    public static func read(opened descriptor: Int32, limit: Int) -> [UInt8]? {
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= limit else {
            return nil
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            guard bytes.count + count <= limit else { return nil }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
