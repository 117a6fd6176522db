#if canImport(Glibc)
import Glibc
#endif

/// Remembers that the broker closed the history database cleanly, and how it left the files, so
/// that the next start can skip `PRAGMA quick_check`.
///
/// `quick_check` reads the whole file: 120–250 ms at a million assets, at every start, for a file
/// SQLite keeps consistent by itself through `kill -9` (WAL with `synchronous=FULL`). It can only
/// find something when the files are not as a clean stop left them: the broker was killed, crashed
/// or lost power, or something else wrote, truncated or replaced them since. So the check runs
/// unless `<database>.clean-stop` says the broker closed them cleanly and the database and its WAL
/// still have the same device, inode, size, modification and change times (the change time moves
/// on any write, truncation or rename, and cannot be set back by hand). The record is removed at
/// start, before the store writes anything, and written again once the store has closed; a broker
/// that dies in between leaves none.
///
/// What a skipped check would have found is still caught: SQLite refuses a file that is not a
/// database, or is shorter than its header says, at the first read when the store opens (the file
/// is then moved aside as damaged); a page damaged in place without any of those times changing,
/// as a failing disk does it, fails the query that reads it with a D-Bus error saying the history
/// is damaged, and the broker keeps running.
enum CleanStopRecord {
    /// Where the record of `database` lives: beside it, so it goes wherever the history goes.
    static func path(for database: String) -> String { database + ".clean-stop" }

    /// Reads and removes the record; `true` when it says the files are exactly as a clean stop
    /// left them. Anything else — no record, a different file, a record that cannot be removed
    /// (a later crash would leave it behind) — answers `false`: check.
    static func take(database: String) -> Bool {
        let recordPath = path(for: database)
        // A record is about 120 bytes; anything larger is not one.
        let recorded = AppFiles.read(recordPath, limit: 512).map { String(decoding: $0, as: UTF8.self) }
        guard unlink(recordPath) == 0 || errno == ENOENT else { return false }
        return recorded != nil && recorded == fingerprint(of: database)
    }

    /// Writes the record. Call only after the store has closed the database: the fingerprint is
    /// of the files as they are then.
    static func write(database: String) {
        let text = fingerprint(of: database)
        let fd = open(path(for: database), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }  // No record: the next start checks, which is always safe.
        var complete = false
        text.utf8CString.withUnsafeBufferPointer { bytes in
            let length = bytes.count - 1  // Without the terminating NUL.
            complete = Glibc.write(fd, bytes.baseAddress, length) == length
        }
        close(fd)
        if !complete { unlink(path(for: database)) }
    }

    /// The identity of the database and its WAL, one line each.
    static func fingerprint(of database: String) -> String {
        [database, database + "-wal"].map(identity(of:)).joined(separator: "\n") + "\n"
    }

    private static func identity(of file: String) -> String {
        var info = stat()
        guard stat(file, &info) == 0 else { return "absent" }
        return "\(info.st_dev) \(info.st_ino) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) "
            + "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }
}
