internal import Glibc
import BrokerCore

/// The art files a history keeps (issue 19): written once per content, listed in the `artwork`
/// table with their size and last use, and deleted when no asset or listen in progress names them
/// any more (after a purge, retention, or a listen that never counted) or when the folder outgrows
/// ``maximumTotalBytes`` — the least recently used unreferenced files first, then the least
/// recently used of the rest, whose assets lose their `artwork`.
extension HistoryDatabase {
    static let maximumTotalArtworkBytes: Int64 = 256 << 20

    private var artworkFolder: String? { ArtworkFolder.path(besideDatabase: path) }

    /// Writes `artwork` into the folder unless a file of that content is there, and marks it used
    /// now. A history in memory keeps no art.
    func keepArtwork(_ artwork: SecuredArtwork, now: Microseconds, bound: Int64 = maximumTotalArtworkBytes) throws(StoreError) {
        guard let folder = artworkFolder else { return }
        let path = folder + "/" + artwork.fileName
        if access(path, F_OK) != 0 { try Self.writeFile(artwork.bytes, to: path, folder: folder) }
        try sql { () throws(SQLiteError) in
            try connection.cachedStatement("""
                INSERT INTO artwork(file, size, used) VALUES(?1, ?2, ?3)
                ON CONFLICT(file) DO UPDATE SET used = excluded.used
                """).use { statement throws(SQLiteError) in
                try statement.bind([.text(artwork.fileName), .integer(Int64(artwork.bytes.count)), .integer(now)])
                try statement.step()
            }
        }
        try enforceArtworkBound(bound, keeping: artwork.fileName)
    }

    /// Deletes `file` when no asset and no listen in progress names it any more.
    func removeArtworkIfUnreferenced(_ file: String) throws(StoreError) {
        let referenced = try sql { () throws(SQLiteError) in
            try connection.cachedStatement("""
                SELECT EXISTS (SELECT 1 FROM assets WHERE artwork = ?1) OR EXISTS (SELECT 1 FROM open_listens WHERE artwork = ?1)
                """).use { statement throws(SQLiteError) in
                try statement.bind(file, at: 1)
                return try statement.step() && statement.int64(at: 0) != 0
            }
        }
        if !referenced { try removeArtwork(file) }
    }

    /// Deletes the files no asset and no listen in progress names; how many.
    @discardableResult
    func removeUnreferencedArtwork() throws(StoreError) -> Int {
        let unreferenced = try sql { () throws(SQLiteError) in
            try connection.cachedStatement("""
                SELECT file FROM artwork WHERE NOT EXISTS (SELECT 1 FROM assets WHERE assets.artwork = artwork.file)
                AND NOT EXISTS (SELECT 1 FROM open_listens WHERE open_listens.artwork = artwork.file)
                """).use { statement throws(SQLiteError) in try statement.rows { $0.text(at: 0) ?? "" } }
        }
        for file in unreferenced { try removeArtwork(file) }
        return unreferenced.count
    }

    /// Deletes art until the folder is within `bound`, never `keeping` (the file just kept, which
    /// its listen names next).
    private func enforceArtworkBound(_ bound: Int64, keeping: String) throws(StoreError) {
        while try sql({ () throws(SQLiteError) in try connection.scalarInt("SELECT coalesce(sum(size), 0) FROM artwork") ?? 0 })
            > bound {
            let oldest = try sql { () throws(SQLiteError) in
                try connection.cachedStatement("""
                    SELECT file FROM artwork WHERE file != ?1 ORDER BY
                    EXISTS (SELECT 1 FROM assets WHERE assets.artwork = artwork.file)
                    OR EXISTS (SELECT 1 FROM open_listens WHERE open_listens.artwork = artwork.file), used LIMIT 1
                    """).use { statement throws(SQLiteError) in
                    try statement.bind(keeping, at: 1)
                    return try statement.step() ? statement.text(at: 0) : nil
                }
            }
            guard let oldest else { return }
            try sql { () throws(SQLiteError) in
                for table in ["assets", "open_listens"] {
                    try connection.cachedStatement("UPDATE \(table) SET artwork = NULL WHERE artwork = ?1").use { statement throws(SQLiteError) in
                        try statement.bind(oldest, at: 1)
                        try statement.step()
                    }
                }
            }
            try removeArtwork(oldest)
        }
    }

    private func removeArtwork(_ file: String) throws(StoreError) {
        try sql { () throws(SQLiteError) in
            try connection.cachedStatement("DELETE FROM artwork WHERE file = ?1").use { statement throws(SQLiteError) in
                try statement.bind(file, at: 1)
                try statement.step()
            }
        }
        if let folder = artworkFolder, ArtworkFolder.fileName(of: file) != nil { unlink(folder + "/" + file) }
    }

    /// Writes `bytes` to a new file beside `path`, then renames it into place: a reader sees the
    /// whole file or none.
    private static func writeFile(_ bytes: [UInt8], to path: String, folder: String) throws(StoreError) {
        if mkdir(folder, 0o700) != 0, errno != EEXIST { throw .fileSystem(path: folder, operation: "mkdir", errno: errno) }
        let temporary = path + ".partial"
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .fileSystem(path: temporary, operation: "open", errno: errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { write(fd, $0 + written, buffer.count - written) } ?? -1
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let failure = errno
                close(fd)
                unlink(temporary)
                throw .fileSystem(path: temporary, operation: "write", errno: failure)
            }
            written += count
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw .fileSystem(path: path, operation: "rename", errno: failure)
        }
    }
}
