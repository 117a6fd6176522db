import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

// What the Reliability* suites (issue 6) share: reading the broker's database with the sqlite3
// tool — the file itself, not what the broker chooses to answer — waiting for the broker to have
// handled what a connection sent, and small file systems to fill or make read-only.

extension RunningBroker {
    /// The single value `query` answers in the broker's database, read with the sqlite3 tool.
    func sqlite(_ query: String, database: String? = nil) throws -> String {
        let result = try ChildProcess.run("/usr/bin/sqlite3", arguments: [database ?? databasePath, query])
        guard result.status == .exited(0) else { throw TestSupportError("sqlite3 «\(query)» failed: \(result.standardError)") }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Rows of `table` matching `condition`.
    func rows(_ table: String = "assets", where condition: String = "1") throws -> Int {
        let text = try sqlite("SELECT count(*) FROM \(table) WHERE \(condition);")
        guard let count = Int(text) else { throw TestSupportError("sqlite3 counted «\(text)»") }
        return count
    }

    /// `PRAGMA integrity_check`: `ok` for a sound file.
    func integrity() throws -> String { try sqlite("PRAGMA integrity_check;") }

    /// Starts the broker on `bus` again with the same data folder and arguments.
    func restarted() throws -> RunningBroker {
        try RunningBroker(bus: bus, data: data, arguments: arguments)
    }
}

enum Reliability {
    /// Everything `connection` sent before this call has been handled by the broker once it
    /// returns: the bus keeps one sender's messages in order, and the broker handles them in order.
    static func sync(_ connection: BusConnection) async throws {
        _ = try await connection.call(MethodCall(
            destination: "org.mediabroker.MediaBroker1", path: "/org/mediabroker/MediaBroker1",
            interface: "org.mediabroker.MediaBroker1", member: "Status"))
    }

    /// A call to the broker with raw arguments, for what the typed client would never send.
    static func call(_ connection: BusConnection, _ member: MemberName, _ arguments: [DBusValue] = [],
                     interface: InterfaceName = "org.mediabroker.MediaBroker1") async throws(BusError) -> BusMessage {
        try await connection.call(MethodCall(
            destination: "org.mediabroker.MediaBroker1", path: "/org/mediabroker/MediaBroker1",
            interface: interface, member: member, arguments: arguments))
    }

    /// A field of `/proc/PID/status` (`VmHWM`, `RssAnon`…), in kB.
    static func status(_ pid: Int32, _ field: String) throws -> Int {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        guard let value = line?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first, let kB = Int(value) else {
            throw TestSupportError("no \(field) in /proc/\(pid)/status")
        }
        return kB
    }

    /// Whether this process may mount file systems (root with CAP_SYS_ADMIN, as on the project's
    /// machines and CI); the full- and read-only-disk tests need it.
    static let canMount: Bool = {
        guard let directory = try? TemporaryDirectory(prefix: "mount-probe") else { return false }
        defer { directory.remove() }
        guard let mounted = try? ChildProcess.run("/usr/bin/mount", arguments: ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory.path]),
              mounted.status == .exited(0) else { return false }
        _ = try? ChildProcess.run("/usr/bin/umount", arguments: [directory.path])
        return true
    }()
}

/// A small tmpfs of its own: fill it, make it read-only, give space back.
final class SmallFileSystem: Sendable {
    let directory: TemporaryDirectory
    var path: String { directory.path }
    var filler: String { directory.appending("filler") }

    init(size: String) throws {
        directory = try TemporaryDirectory(prefix: "small-fs")
        try Self.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", directory.path])
    }

    deinit {
        _ = try? ChildProcess.run("/usr/bin/umount", arguments: ["-l", directory.path])
        directory.remove()
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let result = try ChildProcess.run(tool, arguments: arguments)
        guard result.status == .exited(0) else { throw TestSupportError("\(tool) \(arguments) failed: \(result.standardError)") }
    }

    /// Writes a filler file until the file system has no block left.
    func fill() throws {
        let result = try ChildProcess.run("/usr/bin/dd", arguments: ["if=/dev/zero", "of=\(filler)", "bs=4096"])
        // dd ends with "No space left on device": that is the point.
        guard result.standardError.contains("No space left") else { throw TestSupportError("dd did not fill \(path): \(result.standardError)") }
    }

    func makeRoom() throws { try FileManager.default.removeItem(atPath: filler) }

    func remount(readOnly: Bool) throws {
        try Self.run("/usr/bin/mount", ["-o", "remount,\(readOnly ? "ro" : "rw")", directory.path])
    }
}
