// A dbus-daemon of a test's own, so tests never share bus state and never touch the real bus.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private session-like message bus: its own `dbus-daemon`, its own configuration and socket in
/// a temporary directory, an allow-everything policy, and none of the standard session service
/// directories — only `serviceDirectory` when one is given, so a test decides exactly what can be
/// bus-activated. Stopped by `stop()` or when the last reference goes away.
///
/// Immutable apart from the child process and temporary directory, which are `Sendable` themselves.
public final class PrivateBus: Sendable {
    /// The bus address, e.g. `unix:path=/tmp/…/dbus-AbCd,guid=…`.
    public let address: String
    /// The directory holding the configuration and the socket.
    public let directory: TemporaryDirectory
    /// The `dbus-daemon` process.
    public let daemon: ChildProcess

    private init(address: String, directory: TemporaryDirectory, daemon: ChildProcess) {
        self.address = address
        self.directory = directory
        self.daemon = daemon
    }

    /// Starts a bus. `serviceDirectory` is a directory of D-Bus `.service` files the bus may
    /// activate; `environment` is merged over `ChildProcess.baseEnvironment` for the daemon and so
    /// for every service it activates (e.g. `XDG_DATA_HOME` for a broker started by activation).
    /// The address is read from the pipe given to `--print-address`; nothing sleeps.
    public static func start(
        serviceDirectory: String? = nil,
        environment: [String: String] = [:]
    ) throws -> PrivateBus {
        let directory = try TemporaryDirectory(prefix: "PrivateBus")
        let configuration = directory.appending("bus.conf")
        // Without a service directory of the test's, an empty one: nothing can be activated.
        let services = serviceDirectory ?? directory.appending("services")
        if serviceDirectory == nil { try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: false) }
        try makeConfiguration(listenIn: directory.path, serviceDirectory: services)
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        let daemon = try ChildProcess.launch(
            "dbus-daemon",
            arguments: ["--config-file=\(configuration)", "--nofork", "--print-address=1"],
            environment: environment)
        try daemon.waitForOutput(containing: "\n", in: .standardOutput, timeout: .seconds(10))
        let address = daemon.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        guard address.hasPrefix("unix:") else {
            throw TestSupportError("dbus-daemon printed no address\n\(daemon.transcript)")
        }
        return PrivateBus(address: address, directory: directory, daemon: daemon)
    }

    /// The bus configuration: `scripts/lib/private-bus.conf.in` (shared with the shell scripts, found
    /// from this source file's path, as tests always run from the source tree) filled in.
    static func makeConfiguration(listenIn directory: String, serviceDirectory: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let template = root.appendingPathComponent("scripts/lib/private-bus.conf.in").path
        guard let text = try? String(contentsOfFile: template, encoding: .utf8) else {
            throw TestSupportError("cannot read the bus configuration template \(template)")
        }
        return text.replacingOccurrences(of: "@LISTEN_DIR@", with: xmlEscaped(directory))
            .replacingOccurrences(of: "@SERVICE_DIR@", with: xmlEscaped(serviceDirectory))
    }

    private static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The environment a child needs to use this bus as its session bus.
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Stops the daemon (SIGTERM, then SIGKILL if it lingers) and removes its directory.
    /// Later calls do nothing.
    public func stop() {
        daemon.signal(SIGTERM)
        if (try? daemon.waitForExit(timeout: .seconds(5))) == nil { daemon.signal(SIGKILL) }
        directory.remove()
    }

    deinit { stop() }

    // MARK: Asking the bus driver (through dbus-send, so they need no D-Bus library)

    /// Calls a method of the bus driver `org.freedesktop.DBus` with dbus-send and returns its
    /// printed reply; throws with dbus-send's error when the call fails. The reply may take as long
    /// as starting a program does (`StartServiceByName` waits for it to own its name: mpv on two
    /// busy cores has taken more than 5 s), so it is waited for up to 30 s.
    public func callBusDriver(_ method: String, _ arguments: String...) throws -> String {
        let result = try ChildProcess.run(
            "dbus-send",
            arguments: ["--session", "--print-reply", "--reply-timeout=30000", "--dest=org.freedesktop.DBus",
                        "/org/freedesktop/DBus", "org.freedesktop.DBus.\(method)"] + arguments,
            environment: environment,
            timeout: .seconds(40))
        guard result.status.isSuccess else {
            throw TestSupportError("dbus-send \(method) \(result.status): \(result.standardError)")
        }
        return result.standardOutput
    }

    /// The names currently on the bus (`ListNames`), well-known and unique.
    public func listNames() throws -> [String] {
        try callBusDriver("ListNames").split(separator: "\n").compactMap { line in
            let line = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("string \""), line.hasSuffix("\"") else { return nil }
            return String(line.dropFirst("string \"".count).dropLast())
        }
    }

    /// The process id of the connection owning `name` (`GetConnectionUnixProcessID`).
    public func processID(owning name: String) throws -> Int32 {
        let reply = try callBusDriver("GetConnectionUnixProcessID", "string:\(name)")
        guard let word = reply.split(whereSeparator: \.isWhitespace).last, let pid = Int32(word) else {
            throw TestSupportError("unexpected GetConnectionUnixProcessID reply: \(reply)")
        }
        return pid
    }

    /// Waits until some connection owns `name`.
    public func waitForName(_ name: String, timeout: Duration = .seconds(10)) throws {
        try waitUntil("\(name) is on the bus", timeout: timeout) { try listNames().contains(name) }
    }
}
