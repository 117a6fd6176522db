#if canImport(Glibc)
import Glibc
#endif
internal import BoundedFile
import BrokerCore

/// Reads the art a player points at, at once — Chromium and Firefox delete their temporary art
/// files soon after — and carefully: the file is another process's word. Runs on a worker thread,
/// never the bus thread: even a careful open of a file can wait on a slow disk.
enum ArtworkReader {
    /// The image at `source`; `nil` for a remote URL (never fetched) or anything that is not a
    /// small PNG, JPEG or WebP read without surprises.
    static func secure(_ source: ArtworkSource) -> SecuredArtwork? {
        switch source {
        case .file(let path): readFile(at: path).flatMap(SecuredArtwork.init(bytes:))
        case .data(let base64, let payload): (base64 ? Base64.decode(payload) : ArtworkSource.percentDecoded(payload).map { Array($0.utf8) })
            .flatMap(SecuredArtwork.init(bytes:))
        case .remote: nil
        }
    }

    /// The image at `source` for a player whose process is `process`: a `file://` URL names a
    /// file as that process sees its files. A player in a sandbox (a root of its own, or a
    /// Flatpak or snap) has its file read through its root (`/proc/PID/root`), so a file it cannot
    /// see is not read for it with the person's rights; a process that is not the connection's
    /// (``ConnectedProcess``), or unknown, has no file read at all.
    static func secure(_ source: ArtworkSource, from process: ConnectedProcess?, procRoot: String) -> SecuredArtwork? {
        guard case .file(let path) = source else { return secure(source) }
        guard let process else { return nil }
        let bytes = process.reading(procRoot: procRoot) { () -> [UInt8]? in
            let root = procRoot + "/" + String(process.processID) + "/root"
            guard isSandboxed(root: root, processID: process.processID, procRoot: procRoot) else { return readFile(at: path) }
            return readFile(at: path, inRoot: root)
        }
        return (bytes ?? nil).flatMap(SecuredArtwork.init(bytes:))
    }

    /// Whether the process's root is not the broker's, or it runs in a Flatpak or a snap.
    private static func isSandboxed(root: String, processID: UInt32, procRoot: String) -> Bool {
        guard let theirs = AppFiles.stamp(root + "/"), let ours = AppFiles.stamp("/") else { return true }
        return theirs.device != ours.device || theirs.inode != ours.inode || Sandbox.of(processID: processID, procRoot: procRoot) != nil
    }

    /// The bytes of a regular file of at most ``SecuredArtwork/maximumBytes``. A symbolic link is
    /// followed only to a file in the same folder; a FIFO, a device, a directory or a larger file is
    /// refused without reading (the open does not block: `O_NONBLOCK`).
    static func readFile(at path: String) -> [UInt8]? {
        guard let target = resolvedWithinFolder(path) else { return nil }
        return BoundedFile.read(opened: open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), limit: SecuredArtwork.maximumBytes)
    }

    /// The bytes of the file at absolute `path` as seen from the directory `root` (a process's
    /// `/proc/PID/root`), walked one name at a time from there: no symbolic link is followed and
    /// no `.` or `..` taken, so nothing outside what that root holds can be reached.
    ///
    /// The corresponding C calls are `open` and `openat` (`O_NOFOLLOW`).
    static func readFile(at path: String, inRoot root: String) -> [UInt8]? {
        var names = path.split(separator: "/").map(String.init)
        guard let name = names.popLast(), !(names + [name]).contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        var directory = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        for folder in names where directory >= 0 {
            let next = openat(directory, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            close(directory)
            directory = next
        }
        guard directory >= 0 else { return nil }
        defer { close(directory) }
        return BoundedFile.read(opened: openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY),
                                limit: SecuredArtwork.maximumBytes)
    }

    /// `path` itself, or where its symbolic link points when that is in the same folder; `nil`
    /// for a link out of its folder or a path that does not resolve.
    private static func resolvedWithinFolder(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let resolved = realPath(path), let folder = realPath(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) + "/."),
              resolved.hasPrefix(folder + "/"), !resolved.dropFirst(folder.count + 1).contains("/") else { return nil }
        return resolved
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// RFC 4648 base64, as `data:` URLs carry it; whitespace is skipped, anything else refused.
enum Base64 {
    static func decode(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 4 * 3)
        var buffer: UInt32 = 0
        var bits = 0
        var padding = 0
        for char in text.utf8 {
            let value: UInt32
            switch char {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(char - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(char - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(char - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="): padding += 1; continue
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            default: return nil
            }
            guard padding == 0 else { return nil }
            buffer = buffer << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
            if bytes.count > SecuredArtwork.maximumBytes { return nil }
        }
        return bytes
    }
}
