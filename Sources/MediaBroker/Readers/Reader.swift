/// Who is calling the broker, told from the caller's process as xdg-desktop-portal tells it —
/// never from anything the caller says (its arguments, its bus name, its `app_id`).
///
/// The broker gates sandboxed apps and not host processes: an unsandboxed process of the person
/// cannot be told apart from any other, and it could read the history file itself anyway.
public enum Reader: Hashable, Sendable {
    /// An unsandboxed process of the person.
    case host
    /// A Flatpak app (its app id) or a snap (its name).
    case app(String)
    /// A process the broker could not tell: gone before it was looked at, its `/proc` unreadable,
    /// or a sandbox that names no valid app. It reads nothing and can be granted nothing.
    case unidentified

    /// The app id of a sandboxed reader.
    public var appID: String? {
        if case .app(let id) = self { return id }
        return nil
    }

    /// As `Readers`, logs and errors name it.
    public var description: String {
        switch self {
        case .host: "host"
        case .app(let id): id
        case .unidentified: "an unidentified process"
        }
    }

    /// The reader behind a connection whose process is `process`, read under `procRoot` (normally
    /// `/proc`): its sandbox (``Sandbox``) when it has one; `host` only when the process's root and
    /// cgroup could be read and show none. A process at the pid that is not the connection's (it
    /// started later: the pid was reused) is `unidentified`. Blocks on the file system: call off
    /// the bus thread.
    static func of(_ process: ConnectedProcess, procRoot: String = "/proc") -> Reader {
        process.reading(procRoot: procRoot) { of(processID: process.processID, procRoot: procRoot) } ?? .unidentified
    }

    /// The reader running as process `pid` now, whatever connection it has.
    private static func of(processID pid: UInt32, procRoot: String) -> Reader {
        if let sandbox = Sandbox.of(processID: pid, procRoot: procRoot) { return Reader(sandbox) }
        let process = procRoot + "/" + String(pid)
        // A sandbox that names no valid app is not the person's own process either.
        if AppFiles.stamp(process + "/root/.flatpak-info") != nil { return .unidentified }
        guard AppFiles.isDirectory(process + "/root/"), AppFiles.read(process + "/cgroup", limit: Sandbox.readLimit) != nil else {
            return .unidentified
        }
        return .host
    }

    /// The app of a sandbox: a Flatpak app by its id, a snap by its name.
    init(_ sandbox: Sandbox) {
        switch sandbox {
        case .flatpak(let appID): self = .app(appID)
        case .snap(let name, _): self = .app(name)
        }
    }
}
