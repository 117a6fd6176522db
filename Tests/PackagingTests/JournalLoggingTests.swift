// media-broker's log in the journal: sd-daemon priority prefixes when standard error is the
// journal, plain lines otherwise, and nothing at all from an idle broker with --quiet.

import Foundation
import Testing
import TestSupport

/// One media-broker on a private bus with a database in a temporary directory.
struct LoggingBroker {
    static let busName = "org.mediabroker.MediaBroker1"

    let bus: PrivateBus
    let data: TemporaryDirectory
    let process: ChildProcess

    /// Starts the broker (`command` runs it, `media-broker`'s path and its arguments appended) and
    /// waits until it owns its name.
    init(arguments: [String] = [], environment: [String: String] = [:], through command: [String] = []) throws {
        bus = try PrivateBus.start()
        data = try TemporaryDirectory(prefix: "broker-log")
        let broker = try BuiltProducts.path(of: "media-broker")
        let words = command + [broker, "--database", data.appending("history.sqlite3")] + arguments
        process = try ChildProcess.launch(words[0], arguments: Array(words.dropFirst()), environment: bus.environment.merging(environment) { $1 })
        try bus.waitForName(Self.busName)
    }

    /// Asks for the status once (so the broker has served a call), stops it with SIGTERM and
    /// returns its standard error once it has exited.
    func callStatusAndStop() throws -> String {
        let status = try ChildProcess.run(try BuiltProducts.path(of: "broker-ctl"), arguments: ["status"], environment: bus.environment)
        #expect(status.status == .exited(0), "broker-ctl status: \(status.status) \(status.standardError)")
        process.signal(SIGTERM)
        let exit = try process.waitForExit(timeout: .seconds(10))
        #expect(exit == .exited(0), "media-broker \(exit)\n\(process.transcript)")
        return process.standardError
    }
}

/// Whether systemd-cat can reach journald here (it cannot in a container without it).
let journaldReachable: Bool = {
    guard let run = try? ChildProcess.run("systemd-cat", arguments: ["-t", "media-broker-probe", "true"], timeout: .seconds(10)) else { return false }
    return run.status == .exited(0)
}()

@Suite struct JournalLoggingTests {
    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    /// `<N>` at the start of `line`, N from 0 to 7.
    static func priority(of line: Substring) -> Int? {
        guard line.count >= 3, line.first == "<", line.dropFirst(2).first == ">" else { return nil }
        return line.dropFirst().first?.wholeNumberValue.flatMap { (0...7).contains($0) ? $0 : nil }
    }

    @Test func linesCarryPrioritiesWhenJournalStreamNamesStandardError() throws {
        // What systemd does for a service: JOURNAL_STREAM is the device and inode of the stream.
        let broker = try LoggingBroker(through: [
            "/bin/sh", "-c", "JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) exec \"$@\"", "sh",
        ])
        let log = try broker.callStatusAndStop()
        let lines = Self.lines(log)
        try #require(lines.count >= 2, "expected a start and a stop line:\n\(log)")
        #expect(lines.allSatisfy { Self.priority(of: $0).map { (3...7).contains($0) } ?? false }, "a line without a <3>…<7> prefix:\n\(log)")
        #expect(lines[0].hasPrefix("<6>media-broker "), "the start line is info: \(lines[0])")
        #expect(!log.contains("media-broker: "), "the journal names the program itself; no plain prefix:\n\(log)")
    }

    @Test func linesArePlainWhenJournalStreamNamesAnotherStream() throws {
        // Inherited by a shell from a service (a terminal started as a user unit) while standard
        // error is somewhere else: no prefixes (systemd.exec(5), $JOURNAL_STREAM).
        let broker = try LoggingBroker(environment: ["JOURNAL_STREAM": "8:1234"])
        let log = try broker.callStatusAndStop()
        let lines = Self.lines(log)
        try #require(lines.count >= 2, "expected a start and a stop line:\n\(log)")
        #expect(lines.allSatisfy { $0.hasPrefix("media-broker: ") }, "\(log)")
    }

    @Test func linesArePlainWithoutJournalStream() throws {
        let broker = try LoggingBroker()
        let log = try broker.callStatusAndStop()
        let lines = Self.lines(log)
        try #require(lines.count >= 2, "expected a start and a stop line:\n\(log)")
        #expect(lines.allSatisfy { $0.hasPrefix("media-broker: ") && Self.priority(of: $0) == nil }, "\(log)")
        #expect(lines[0].contains("owns org.mediabroker.MediaBroker1"), "\(lines[0])")
    }

    @Test(arguments: [false, true])
    func anIdleQuietBrokerLogsNothing(inJournal: Bool) throws {
        let command = inJournal ? ["/bin/sh", "-c", "JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) exec \"$@\"", "sh"] : []
        let broker = try LoggingBroker(arguments: ["--quiet"], through: command)
        let log = try broker.callStatusAndStop()
        #expect(log.isEmpty, "an idle broker with --quiet logged:\n\(log)")
    }

    @Test(.enabled(if: journaldReachable, "systemd-cat cannot reach journald on this machine (no /run/systemd/journal/stdout), so this sub-check cannot run here"))
    func underSystemdCatTheJournalFilesTheStartLineAtInfo() throws {
        let identifier = "media-broker-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let broker = try LoggingBroker(through: ["systemd-cat", "-t", identifier])
        _ = try broker.callStatusAndStop()
        var entries: [[String: Any]] = []
        try waitUntil("journalctl shows the broker's start and stop lines (reading the journal needs root or the systemd-journal group)", timeout: .seconds(15)) {
            let run = try ChildProcess.run("journalctl", arguments: ["-t", identifier, "-o", "json", "--no-pager"])
            entries = run.standardOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            return entries.count >= 2
        }
        let start = try #require(entries.first { ($0["MESSAGE"] as? String)?.contains("owns org.mediabroker.MediaBroker1") ?? false }, "\(entries)")
        #expect(start["PRIORITY"] as? String == "6", "\(start)")
        let message = start["MESSAGE"] as? String ?? ""
        #expect(!message.hasPrefix("<") && !message.hasPrefix("media-broker: "), "the prefix reached the message: \(message)")
    }
}
