import Foundation
import MediaDonationClient
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 20 on real sandboxes: clients run as Flatpak runs apps — in bubblewrap with a
/// `.flatpak-info`, through a real `xdg-dbus-proxy` allowed only to talk to the broker — read
/// nothing until the person allows them, change nothing ever, donate only in their own name, and
/// receive live listens only while allowed.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SandboxedReaderTests {
    static let appID = "org.example.Journal"

    static func brokerCtl() throws -> String { try BuiltProducts.path(of: "broker-ctl") }

    /// A broker with one listen donated by the host, and the sandbox of ``appID``.
    static func rig(arguments: [String] = ["--min-listen", "2"], data: TemporaryDirectory? = nil) async throws
        -> (bus: PrivateBus, broker: RunningBroker, sandbox: FlatpakSandbox) {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, data: data, arguments: arguments)
        if data == nil { _ = try await broker.client().donate(Donation(appID: "mpv", title: "Teardrop", artists: ["Massive Attack"])) }
        return (bus, broker, try FlatpakSandbox(appID: appID, bus: bus))
    }

    @Test("the broker tells the sandboxed app through the proxy, and it reads nothing before a grant")
    func readsNothingBeforeAGrant() async throws {
        let (_, broker, sandbox) = try await Self.rig()
        for command in [["recent"], ["moments"], ["now"], ["apps"], ["follow"]] {
            let result = try sandbox.run(try Self.brokerCtl(), arguments: command)
            #expect(result.status == .exited(1), "\(command): \(result)")
            #expect(result.standardError.contains("access denied: \(Self.appID) may not read"), "\(command): \(result.standardError)")
            #expect(result.standardError.contains("RequestAccess") && result.standardError.contains("broker-ctl allow \(Self.appID)"))
        }
        // Status answers, but without the history's players and size.
        let status = try sandbox.run(try Self.brokerCtl(), arguments: ["status", "--json"])
        #expect(status.status == .exited(0), "\(status)")
        #expect(!status.standardOutput.contains("\"assets\":1"), "\(status.standardOutput)")
        try broker.process.waitForOutput(containing: "reads as \(Self.appID)", in: .standardError, timeout: .seconds(5))
        // The host reads as before.
        let host = try broker.brokerCtl(["recent"])
        #expect(host.status == .exited(0) && host.standardOutput.contains("Teardrop"), "\(host)")
    }

    @Test("a sandboxed app changes no setting, grant or history, ever")
    func changesNothing() async throws {
        let (_, broker, sandbox) = try await Self.rig()
        #expect(try broker.brokerCtl(["allow", Self.appID]).status == .exited(0))
        for command in [["media", "off"], ["retention", "1"], ["purge", "--all", "--yes"], ["opt-out", "mpv"],
                        ["allow", "org.example.Other"], ["deny", Self.appID], ["readers"]] {
            let result = try sandbox.run(try Self.brokerCtl(), arguments: command)
            #expect(result.status == .exited(1), "\(command): \(result)")
            #expect(result.standardError.contains("access denied"), "\(command): \(result.standardError)")
        }
        let client = try broker.client()
        #expect(try await client.isMediaEnabled())
        #expect(try await client.retentionDays() == 90)
        #expect(try await client.recentMedia().map(\.title) == ["Teardrop"])
        #expect(try await client.readers().map(\.appID) == [Self.appID])
        #expect(try await client.optedOutApps().isEmpty)
    }

    @Test("a grant lets the app read; it survives kill -9 and a restart; deny takes it back")
    func grantsHold() async throws {
        let (bus, broker, sandbox) = try await Self.rig()
        #expect(try broker.brokerCtl(["allow", Self.appID]).status == .exited(0))
        var result = try sandbox.run(try Self.brokerCtl(), arguments: ["recent"])
        #expect(result.status == .exited(0) && result.standardOutput.contains("Teardrop"), "\(result)")

        broker.process.signal(SIGKILL)
        _ = try broker.process.waitForExit(timeout: .seconds(10))
        try waitUntil("the killed broker leaves the bus") { try !bus.listNames().contains(MediaBrokerClient.busName) }
        let restarted = try RunningBroker(bus: bus, data: broker.data)
        result = try sandbox.run(try Self.brokerCtl(), arguments: ["recent"])
        #expect(result.status == .exited(0) && result.standardOutput.contains("Teardrop"), "\(result)")
        let readers = try await restarted.client().readers()
        #expect(readers.map(\.appID) == [Self.appID] && readers.first?.access == .allowed)
        #expect(readers.first?.lastRead != nil, "a read is noted")

        #expect(try restarted.brokerCtl(["deny", Self.appID]).status == .exited(0))
        result = try sandbox.run(try Self.brokerCtl(), arguments: ["recent"])
        #expect(result.status == .exited(1) && result.standardError.contains("access denied"), "\(result)")
    }

    @Test("a sandboxed app donates only as itself, and at most 20 at once")
    func donationsAreItsOwnAndLimited() async throws {
        let (_, broker, sandbox) = try await Self.rig()
        let client = try broker.client()
        var result = try sandbox.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("app.py"), "donate", "1", "spotify"])
        #expect(result.standardOutput.hasPrefix("refused org.mediabroker.MediaBroker1.Error.AccessDenied"), "\(result)")
        #expect(try await client.recentMedia().map(\.appID) == ["mpv"], "nothing stored in another's name")

        result = try sandbox.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("app.py"), "donate", "21"])
        let lines = result.standardOutput.split(separator: "\n")
        try #require(lines.count == 22, "\(result)")
        let seconds = Double(lines[21].dropFirst("seconds ".count)) ?? .infinity
        #expect(lines[0..<20].allSatisfy { $0.hasPrefix("ok ") }, "\(lines)")
        // One donation a second refills the burst: the 21st, asked within that second, is refused.
        try #require(seconds < 1, "the burst took \(seconds) s")
        #expect(lines[20] == "refused org.freedesktop.DBus.Error.LimitsExceeded", "\(lines)")
        let stored = try await client.recentMedia(limit: 100)
        #expect(stored.filter { $0.appID == Self.appID }.count == 20)
    }

    @Test("a host process that names an app id anywhere is still host")
    func aHostCannotClaimAnAppID() async throws {
        let (bus, broker, _) = try await Self.rig()
        let result = try ChildProcess.run(
            "/usr/bin/python3", arguments: [FlatpakSandbox.fixture("app.py"), "donate", "1", Self.appID, "--app-id", Self.appID],
            environment: bus.environment.merging(["FLATPAK_ID": Self.appID, "SNAP_NAME": Self.appID]) { $1 })
        #expect(result.standardOutput.hasPrefix("ok "), "\(result)")
        // It donated in the name it gave, as a host may, and reads without any grant.
        let ctl = try ChildProcess.run(try Self.brokerCtl(), arguments: ["recent", "--app", Self.appID],
                                       environment: bus.environment.merging(["FLATPAK_ID": Self.appID]) { $1 })
        #expect(ctl.status == .exited(0) && ctl.standardOutput.contains("Sandboxed donation 1"), "\(ctl)")
        #expect(!broker.process.standardError.contains("reads as \(Self.appID)"))
    }
}
