import BrokerCore

/// Telling the reader from its process's files.
extension Reader {
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
