import AssetContract
import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// What a person or a script sees from a shell, with the tools Debian ships.
@Suite struct ShellAccessTests {
    func gdbus(_ bus: PrivateBus, _ arguments: [String]) throws -> (status: ChildProcess.ExitStatus, standardOutput: String, standardError: String) {
        try ChildProcess.run("/usr/bin/gdbus", arguments: arguments, environment: bus.environment)
    }

    @Test("gdbus introspect lists RecentMedia with its signature")
    func introspection() throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let result = try gdbus(bus, ["introspect", "--session", "--dest", MediaBrokerClient.busName, "--object-path", MediaBrokerClient.objectPath])
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardOutput.contains("interface org.mediabroker.MediaBroker1"))
        // gdbus prints each argument's annotations (its documentation) before it.
        let recentMedia = try #require(result.standardOutput.range(of: "RecentMedia(").map { result.standardOutput[$0.lowerBound...] })
        let signature = recentMedia[..<(recentMedia.range(of: ");\n")?.upperBound ?? recentMedia.endIndex)]
        #expect(signature.contains("in  a{sv} filter,") && signature.contains("out aa{sv} assets)"), "\(signature)")
        // Every asset argument carries the contract's keys and types.
        #expect(result.standardOutput.contains("@org.mediabroker.MediaBroker1.AssetKeys(\"\(AssetContract.annotation)\")"))
        // Which apps are opted out never travels in a broadcast (issue 20).
        let lines = result.standardOutput.components(separatedBy: "\n")
        let property = try #require(lines.firstIndex { $0.contains("readonly as OptedOutApps") })
        let annotations = lines[..<property].reversed().prefix { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@") }
        #expect(annotations.contains { $0.contains("EmitsChangedSignal(\"invalidates\")") }, "\(annotations)")
        try broker.stop()
    }

    @Test("gdbus call RecentMedia {} answers, and limit 0 is InvalidArgs")
    func calls() throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let base = ["call", "--session", "--dest", MediaBrokerClient.busName, "--object-path", MediaBrokerClient.objectPath,
                    "--method", "org.mediabroker.MediaBroker1.RecentMedia"]
        let empty = try gdbus(bus, base + ["{}"])
        #expect(empty.status == .exited(0), "\(empty.standardError)")
        #expect(empty.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "(@aa{sv} [],)")
        let bad = try gdbus(bus, base + ["{'limit': <uint32 0>}"])
        #expect(bad.status != .exited(0))
        #expect(bad.standardError.contains("org.freedesktop.DBus.Error.InvalidArgs"))
        try broker.stop()
    }

    @Test("bus activation: the first RecentMedia call starts the broker from its service file")
    func busActivation() async throws {
        let services = try TemporaryDirectory(prefix: "services")
        let data = try TemporaryDirectory(prefix: "activated")
        let binary = try BuiltProducts.path(of: "media-broker")
        // The installed file with Exec= pointing at this build (what `make install` writes).
        let template = try String(contentsOfFile: packageRoot() + "/dbus-policy/org.mediabroker.MediaBroker1.service", encoding: .utf8)
        let exec = "\(binary) --database \(data.appending("history.sqlite3"))"
        let service = template.split(separator: "\n").map { line in
            line.hasPrefix("Exec=") ? "Exec=\(exec)" : String(line)
        }.filter { !$0.hasPrefix("SystemdService=") }.joined(separator: "\n")
        try service.write(toFile: services.appending("org.mediabroker.MediaBroker1.service"), atomically: true, encoding: .utf8)

        let bus = try PrivateBus.start(serviceDirectory: services.path)
        #expect(try !bus.listNames().contains(MediaBrokerClient.busName))
        let client = try MediaBrokerClient(address: bus.address, timeout: .seconds(20))
        let assets = try await client.recentMedia()
        #expect(assets.isEmpty)
        #expect(try bus.listNames().contains(MediaBrokerClient.busName))
        let pid = try bus.processID(owning: MediaBrokerClient.busName)
        kill(pid, SIGTERM)
        try waitUntil("the activated broker exits") { kill(pid, 0) != 0 }
    }

    private func packageRoot() -> String {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        return FileManager.default.currentDirectoryPath
    }
}
