// Running a test client the way Flatpak runs an app (issue 20).

import Foundation

/// Programs run as Flatpak runs an app: inside bubblewrap (`bwrap`, the sandbox Flatpak itself
/// uses) with a `.flatpak-info` naming the app id bound at `/.flatpak-info`, talking to the bus
/// only through a real `xdg-dbus-proxy` started inside the same sandbox and allowed `--talk` to the
/// names given — as Flatpak sets it up (Flatpak runs the proxy in a sandbox carrying the same file,
/// so the broker sees the app in the proxy's process).
///
/// The sandbox sees `/usr` and `/etc` read-only, its own `/proc`, `/dev` and `/tmp`, the private
/// bus's directory (for the proxy alone to connect to) and the program's own directory.
public struct FlatpakSandbox: Sendable {
    public let appID: String
    public let bus: PrivateBus
    public let talk: [String]
    /// Flatpak's `--socket=session-bus`: the program talks to the bus itself, with no proxy between.
    public var sessionBus = false
    private let directory: TemporaryDirectory

    /// Where the proxy listens inside the sandbox; the program's `DBUS_SESSION_BUS_ADDRESS`.
    static let proxySocket = "/run/flatpak/bus"

    public init(appID: String, bus: PrivateBus, talk: [String] = ["org.mediabroker.MediaBroker1"]) throws {
        self.appID = appID
        self.bus = bus
        self.talk = talk
        directory = try TemporaryDirectory(prefix: "flatpak-\(appID)")
        let info = "[Application]\nname=\(appID)\nruntime=runtime/org.freedesktop.Platform/x86_64/24.08\n\n[Instance]\ninstance-id=1\n"
        try info.write(toFile: directory.appending("flatpak-info"), atomically: true, encoding: .utf8)
    }

    /// The shell that starts the proxy inside the sandbox, waits until it says it is ready
    /// (`--fd`: one byte on fd 3, and it stops when that pipe closes — kept open as fd 4 for as
    /// long as the program runs), then becomes the program.
    private static let startProxy = """
        real=$1; shift
        mkfifo /tmp/proxy-ready
        xdg-dbus-proxy --fd=3 "$real" \(proxySocket) --filter $TALK 3>/tmp/proxy-ready &
        exec 4</tmp/proxy-ready
        if [ "$(head -c 1 <&4 | wc -c)" != 1 ]; then echo "xdg-dbus-proxy did not start" >&2; exit 70; fi
        exec "$@"
        """

    /// Starts `program` with `arguments` in the sandbox.
    public func launch(_ program: String, arguments: [String] = [], environment: [String: String] = [:]) throws -> ChildProcess {
        let programDirectory = URL(fileURLWithPath: program).deletingLastPathComponent().path
        var bind = ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
        for (link, target) in [("/bin", "usr/bin"), ("/sbin", "usr/sbin"), ("/lib", "usr/lib"), ("/lib64", "usr/lib64")]
        where FileManager.default.fileExists(atPath: "/" + target) {
            bind += ["--symlink", target, link]
        }
        bind += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--dir", "/run/flatpak",
                 "--ro-bind", directory.appending("flatpak-info"), "/.flatpak-info",
                 "--bind", bus.directory.path, bus.directory.path]
        // The program, the libraries it loads from outside /usr, and the test scripts.
        for directory in Set([programDirectory, Self.fixtures] + Self.libraryDirectories(of: program)) where !directory.hasPrefix("/usr/") {
            bind += ["--ro-bind", directory, directory]
        }
        var variables = ["DBUS_SESSION_BUS_ADDRESS": sessionBus ? bus.address : "unix:path=\(Self.proxySocket)", "HOME": "/tmp",
                         "TALK": talk.map { "--talk=\($0)" }.joined(separator: " ")]
        variables.merge(environment) { $1 }
        let setenv = variables.sorted { $0.key < $1.key }.flatMap { ["--setenv", $0.key, $0.value] }
        let start = sessionBus ? [program] : ["/bin/sh", "-c", Self.startProxy, "sh", bus.address, program]
        return try ChildProcess.launch(
            "bwrap", arguments: ["--die-with-parent", "--unshare-pid", "--clearenv"] + bind + setenv + ["--"] + start + arguments)
    }

    /// The directories of the shared libraries `program` loads from outside `/usr` (a debug
    /// build's Swift runtime in the toolchain), as `ldd` lists them.
    static func libraryDirectories(of program: String) -> [String] {
        guard let listing = try? ChildProcess.run("ldd", arguments: [program]) else { return [] }
        return listing.standardOutput.split(separator: "\n").compactMap { line in
            guard let arrow = line.range(of: "=> /") else { return nil }
            let path = line[line.index(before: arrow.upperBound)...].split(separator: " ").first.map(String.init) ?? ""
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            return directory.hasPrefix("/lib") ? nil : directory
        }
    }

    /// Runs `program` in the sandbox to its end.
    public func run(
        _ program: String, arguments: [String] = [], environment: [String: String] = [:], timeout: Duration = .seconds(30)
    ) throws -> (status: ChildProcess.ExitStatus, standardOutput: String, standardError: String) {
        let child = try launch(program, arguments: arguments, environment: environment)
        let status = try child.waitForExit(timeout: timeout)
        return (status, child.standardOutput, child.standardError)
    }

    /// `Tests/Fixtures` (tests run from the source tree).
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    /// A script of `Tests/Fixtures`, by name; visible inside the sandbox at the same path.
    public static func fixture(_ name: String) -> String { fixtures + "/" + name }
}
