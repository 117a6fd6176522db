internal import Glibc
internal import BoundedFile

/// The few file-system calls app resolution needs, on Glibc alone (the daemon does not link
/// Foundation). Every call here may block on disk I/O; none of them follows data into a crash:
/// a file that is missing, unreadable, not regular or too large simply reads as absent.
enum AppFiles {
    /// Files larger than this are ignored (a desktop file or an `index.theme` is a few KB; the
    /// largest `index.theme` of a real theme is well under 1 MB).
    static let readLimit = 1 << 20

    /// What `stat` says about a path, reduced to what tells a change apart: a directory's mtime
    /// moves when an entry is added, removed or renamed in it; the inode moves when it is replaced.
    struct Stamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var seconds: Int
        var nanoseconds: Int
        var size: Int64
    }

    /// The stamp of `path` (following symbolic links), or nil when it does not exist.
    ///
    /// The corresponding C call is `stat`.
    static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), seconds: info.st_mtim.tv_sec,
            nanoseconds: info.st_mtim.tv_nsec, size: Int64(info.st_size))
    }

    /// The target of the symbolic link at `path` (at most 4 KB), or nil when it is not a link.
    ///
    /// The corresponding C call is `readlink`.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.baseAddress.map { readlink(path, $0, bytes.count) } ?? -1
        }
        guard count > 0, count < buffer.count else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Whether `path` is a regular file (following symbolic links).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` is a directory (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The contents of the regular file at `path`, or nil when it is missing, not a regular file,
    /// unreadable or larger than `limit` bytes (``BoundedFile``: never waits on a FIFO).
    static func read(_ path: String, limit: Int = readLimit) -> [UInt8]? {
        BoundedFile.read(path, limit: limit)
    }

    /// One entry of a directory listing.
    struct Entry {
        var name: String
        /// `true` for a directory, or a symbolic link to one.
        var isDirectory: Bool
    }

    /// The entries of the directory at `path` except `.`, `..` and other names starting with a dot,
    /// in no particular order; empty when it cannot be read. At most `limit` entries are returned.
    ///
    /// The corresponding C calls are `opendir`, `readdir` and `closedir`; a `d_type` of
    /// `DT_UNKNOWN` or `DT_LNK` is settled with `stat`.
    static func entries(of path: String, limit: Int = 20_000) -> [Entry] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var result: [Entry] = []
        while result.count < limit, let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name.isEmpty || name.hasPrefix(".") { continue }
            let type = Int(entry.pointee.d_type)
            let isDirectory: Bool
            switch type {
            case Int(DT_DIR): isDirectory = true
            case Int(DT_REG): isDirectory = false
            default: isDirectory = Self.isDirectory(path + "/" + name)
            }
            result.append(Entry(name: name, isDirectory: isDirectory))
        }
        return result
    }

    /// `$HOME`-style paths must be absolute: the XDG base-directory spec says a relative path in
    /// these variables is invalid and must be ignored.
    static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        var path = value
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
