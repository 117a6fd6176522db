import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// How the daemon starts, refuses, idles and stops.
@Suite struct BrokerLifecycleTests {
    @Test("a second media-broker on the same bus exits non-zero and says why")
    func secondInstanceIsRefused() throws {
        let bus = try PrivateBus.start()
        let first = try RunningBroker(bus: bus)
        let data = try TemporaryDirectory(prefix: "second")
        let second = try RunningBroker.launch(bus: bus, databasePath: data.appending("other.sqlite3"), arguments: [])
        #expect(try second.waitForExit(timeout: .seconds(10)) == .exited(1))
        #expect(second.standardError.contains("already owns org.mediabroker.MediaBroker1"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).isEmpty, "the second broker touched no history")
        #expect(first.process.isRunning)
        #expect(try first.stop() == .exited(0))
    }

    @Test("after a clean stop the next start trusts the file; after kill -9 the next start checks it in full")
    func fullCheckOnlyAfterAnUncleanStop() async throws {
        let bus = try PrivateBus.start()
        let first = try RunningBroker(bus: bus)
        let check = "checking \(first.databasePath) in full"
        _ = try await first.client().donate(Donation(appID: "journal", title: "Kept"))
        #expect(try first.stop() == .exited(0))
        #expect(first.logLines(containing: check) == 0, "a new file has nothing to check")
        let record = first.databasePath + ".clean-stop"
        #expect(FileManager.default.fileExists(atPath: record), "a clean stop leaves its record")

        let second = try first.restarted()
        try second.process.waitForOutput(containing: "owns org.mediabroker.MediaBroker1", in: .standardError, timeout: .seconds(10))
        #expect(second.logLines(containing: check) == 0, "the file is as the clean stop left it")
        #expect(!FileManager.default.fileExists(atPath: record), "taken at start: a crash must not leave it behind")
        second.process.signal(SIGKILL)
        _ = try second.process.waitForExit(timeout: .seconds(10))

        let third = try second.restarted()
        try third.process.waitForOutput(containing: check, in: .standardError, timeout: .seconds(10))
        #expect(try await third.client().recentMedia().map(\.title) == ["Kept"])
        #expect(try third.stop() == .exited(0))
    }

    @Test("without a reachable bus the broker exits 1 with a message")
    func noBus() throws {
        let data = try TemporaryDirectory(prefix: "nobus")
        let result = try ChildProcess.run(
            try BuiltProducts.path(of: "media-broker"), arguments: ["--database", data.appending("h.sqlite3")],
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(data.path)/no-such-socket"])
        #expect(result.status == .exited(1))
        #expect(result.standardError.contains("cannot connect to the session bus"))
    }

    @Test("SIGTERM and SIGINT stop the broker cleanly with exit 0")
    func signalsStopCleanly() throws {
        for signal in [SIGTERM, SIGINT] {
            let bus = try PrivateBus.start()
            let broker = try RunningBroker(bus: bus)
            broker.process.signal(signal)
            #expect(try broker.process.waitForExit(timeout: .seconds(10)) == .exited(0))
        }
    }

    @Test("when the bus goes away the broker exits non-zero so systemd restarts it")
    func busLossExitsNonZero() throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        bus.stop()
        #expect(try broker.process.waitForExit(timeout: .seconds(10)) == .exited(1))
        #expect(broker.process.standardError.contains("session bus went away"))
    }

    @Test("usage errors exit 64 and say the mistake, the usage and where help is, each on its line, as broker-ctl does; --help and --version exit 0")
    func usage() throws {
        let binary = try BuiltProducts.path(of: "media-broker")
        let bad = try ChildProcess.run(binary, arguments: ["--min-listen", "soon"])
        #expect(bad.status == .exited(64))
        let lines = bad.standardError.split(separator: "\n")
        #expect(lines.count == 3, "\(bad.standardError)")
        #expect(lines.first?.hasPrefix("Error: ") == true && lines.first?.contains("--min-listen") == true, "\(bad.standardError)")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: media-broker [--database PATH]") == true, "\(bad.standardError)")
        #expect(lines.last == "See 'media-broker --help'.", "\(bad.standardError)")
        let help = try ChildProcess.run(binary, arguments: ["--help"])
        #expect(help.status == .exited(0))
        #expect(help.standardOutput.contains("--database"))
        let version = try ChildProcess.run(binary, arguments: ["--version"])
        #expect(version.status == .exited(0))
        #expect(version.standardOutput.hasPrefix("media-broker \(MediaBrokerClient.version)"))
    }

    @Test("an idle broker uses no CPU: its CPU time does not grow over 10 s")
    func idleCostsNothing() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        // Let start-up finish: one answered call means the loop has nothing left to do.
        _ = try await broker.client().status()
        let before = try cpuTicks(of: broker.process.pid)
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        // A fixed observation window, not synchronisation: the claim is about 10 s of idling.
        try await clock.sleep(until: end)
        let after = try cpuTicks(of: broker.process.pid)
        #expect(after == before, "CPU ticks grew from \(before) to \(after) while idle")
        #expect(try broker.stop() == .exited(0))
    }

    /// utime + stime of a process, in clock ticks, from /proc/PID/stat.
    private func cpuTicks(of pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: ")") else { throw TestSupportError("unreadable /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // state is field 3; utime and stime are fields 14 and 15 (1-based, over the whole line).
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw TestSupportError("unreadable /proc/\(pid)/stat")
        }
        return user + system
    }
}
