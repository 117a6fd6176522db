internal import Glibc

/// The file-system work around the database file that SQLite does not do: private folders and file
/// modes, and moving a damaged file aside.
enum StoreFiles {
    /// Creates the folders above `path` (mode 0700) and the file itself (mode 0600) when missing.
    ///
    /// SQLite would create the file with 0644 less the umask; listening history is private, so the
    /// file is made first with 0600, and SQLite gives its `-wal` and `-shm` files the same mode.
    /// Existing folders and files keep their modes: they are the person's to set.
    static func prepare(path: String) throws(StoreError) {
        try createParentFolders(of: path)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.fileSystem(path: path, operation: "open", errno: errno) }
        close(fd)
    }

    private static func createParentFolders(of path: String) throws(StoreError) {
        var prefix = ""
        let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (index, component) in components.enumerated() {
            prefix += index == 0 ? String(component) : "/" + component
            guard !prefix.isEmpty, !component.isEmpty, component != "." else { continue }
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw StoreError.fileSystem(path: prefix, operation: "mkdir", errno: errno)
            }
        }
    }

    /// Renames the database at `path` and its `-wal` and `-shm` files to `<path>.corrupt-<UTC time>`
    /// (plus `-wal`/`-shm`), keeping them for inspection, and returns the new name of the database.
    ///
    /// The WAL goes with the database because a WAL left behind would be replayed into the fresh
    /// database that takes the old name. A second move within the same second gets `-2`, `-3`, … .
    static func moveAside(path: String) throws(StoreError) -> String {
        let stem = "\(path).corrupt-\(utcTimestamp())"
        var target = stem
        var attempt = 1
        while access(target, F_OK) == 0 {
            attempt += 1
            target = "\(stem)-\(attempt)"
        }
        guard rename(path, target) == 0 else {
            throw StoreError.fileSystem(path: path, operation: "rename", errno: errno)
        }
        for suffix in ["-wal", "-shm"] where rename(path + suffix, target + suffix) != 0 && errno != ENOENT {
            throw StoreError.fileSystem(path: path + suffix, operation: "rename", errno: errno)
        }
        return target
    }

    /// Now in UTC as `20250131T235959Z`: sorts by time, and has no characters a shell or a file
    /// manager trips over.
    static func utcTimestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
