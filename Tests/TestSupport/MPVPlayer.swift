// A real MPRIS player for integration tests: mpv with the mpv-mpris plugin, headless.

import Foundation

/// mpv playing files with no terminal, no video and no sound card, announcing itself over MPRIS
/// on a `PrivateBus`. When the last reference goes away, the `ChildProcess` kills mpv if it still runs.
///
/// Things found out by hand (mpv 0.35.1, mpv-mpris 0.9 on Debian 12):
/// - `--no-config` also stops mpv from auto-loading `/etc/mpv/scripts/mpris.so` (the package puts a
///   symlink there), so the plugin is loaded explicitly with `--script=`.
/// - `--no-terminal` is all it takes to run headless as root with no tty; `--ao=null` still plays in
///   real time, so a 3 s file takes 3 s and mpv then exits 0 (`--idle=no`).
/// - The first mpv on a bus owns `org.mpris.MediaPlayer2.mpv`; any further one owns
///   `org.mpris.MediaPlayer2.mpv.instance<pid>`.
/// - Right after start `xesam:title` is the file name; the tags replace it a few ms later, once the
///   file is opened: wait for the tag value, not for the key.
public final class MPVPlayer: Sendable {
    /// Where Debian's mpv-mpris package puts the plugin (`dpkg -L mpv-mpris`), then its autoload link.
    public static let scriptCandidates = ["/usr/lib/mpv-mpris/mpris.so", "/etc/mpv/scripts/mpris.so"]

    /// The MPRIS name of the first mpv on a bus.
    public static let firstBusName = "org.mpris.MediaPlayer2.mpv"

    /// The mpv process.
    public let process: ChildProcess
    /// The JSON IPC socket, when one was asked for.
    public let ipcSocket: String?
    private let bus: PrivateBus

    private init(process: ChildProcess, ipcSocket: String?, bus: PrivateBus) {
        self.process = process
        self.ipcSocket = ipcSocket
        self.bus = bus
    }

    /// The mpv-mpris plugin's path; throws if the package is not installed.
    public static func mprisScript() throws -> String {
        guard let path = scriptCandidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw TestSupportError("mpv-mpris is not installed (looked for \(scriptCandidates)); scripts/test installs it")
        }
        return path
    }

    /// Starts mpv playing `files` once each, then exiting, with the session bus `bus`.
    /// `ipcSocket` adds `--input-ipc-server=` for tests that steer mpv; `extraArguments` go before
    /// the files (e.g. `--pause`, `--loop-file=inf`).
    public static func launch(
        playing files: [String],
        on bus: PrivateBus,
        ipcSocket: String? = nil,
        extraArguments: [String] = [],
        environment: [String: String] = [:]
    ) throws -> MPVPlayer {
        var arguments = [
            "--no-config", "--no-terminal", "--no-video", "--ao=null", "--idle=no",
            "--script=\(try mprisScript())",
        ]
        if let ipcSocket { arguments.append("--input-ipc-server=\(ipcSocket)") }
        arguments += extraArguments + ["--"] + files
        let process = try ChildProcess.launch(
            "mpv", arguments: arguments, environment: environment.merging(bus.environment) { $1 })
        return MPVPlayer(process: process, ipcSocket: ipcSocket, bus: bus)
    }

    /// The MPRIS name this mpv owns now, or nil while it owns none.
    public func currentBusName() throws -> String? {
        let names = try bus.listNames()
        let instanceName = "\(Self.firstBusName).instance\(process.pid)"
        if names.contains(instanceName) { return instanceName }
        if names.contains(Self.firstBusName), try bus.processID(owning: Self.firstBusName) == process.pid {
            return Self.firstBusName
        }
        return nil
    }

    /// Waits until this mpv owns its MPRIS name on the bus and returns the name.
    @discardableResult
    public func waitForBusName(timeout: Duration = .seconds(10)) throws -> String {
        var name: String?
        try waitUntil("\(process) owns an MPRIS name", timeout: timeout) {
            if !process.isRunning {
                throw TestSupportError("mpv ended before owning an MPRIS name\n\(process.transcript)")
            }
            name = try currentBusName()
            return name != nil
        }
        return name!
    }
}
