import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// Issue 32: a sandboxed app (a real bubblewrap + xdg-dbus-proxy sandbox) that wants more than it
/// was given gets nothing by the side doors. Each test is an attack, run as an app would run it.
@Suite(.serialized, .timeLimit(.minutes(3))) struct HostileAppTests {
    @Test("item 4: markup in RequestAccess's reason reaches the notification escaped, never rendered")
    func markupInTheReasonIsEscaped() async throws {
        let rig = try RequestAccessTests.rig("dismiss"), (_, server, sandbox) = rig
        defer { withExtendedLifetime(rig) {} }
        let reason = "<b>Urgent</b> & <a href=\"https://evil.example\">tap here</a>"
        _ = try RequestAccessTests.ask(sandbox, reason: reason)
        let shown = try #require(server?.standardOutput.split(separator: "\n").first { $0.hasPrefix("notify ") })
        #expect(shown.contains("&lt;b&gt;Urgent&lt;/b&gt; &amp; &lt;a href=\"https://evil.example\"&gt;tap here&lt;/a&gt;"), "\(shown)")
        #expect(!shown.contains("<b>") && !shown.contains("<a "), "\(shown)")
    }

    @Test("item 3: PickMedia and Close ten times with one handle_token leaves one picker, and none once the app has left")
    func reusedTokensLeaveNoPickers() async throws {
        let rig = try await PickerRig()
        let sandbox = try FlatpakSandbox(appID: "org.example.Journal", bus: rig.bus)
        let app = try sandbox.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py"), "storm", "10"])
        try app.waitForOutput(containing: "handle ", in: .standardOutput, timeout: .seconds(30))
        // The last request's window shows after every earlier request's picker was started.
        _ = try rig.drive(PickerRig.window(reason: "Storm"), ["control:Cancel"])
        try waitUntil("one picker runs: the last request's", timeout: .seconds(20)) { try rig.pickerProcesses().count == 1 }
        app.signal(SIGTERM)
        _ = try app.waitForExit(timeout: .seconds(10))
        try waitUntil("no picker runs once the app has left", timeout: .seconds(20)) { try rig.pickerProcesses().isEmpty }
    }

    @Test("item 3: one open picker per app, however many connections it opens")
    func onePickerPerApp() async throws {
        let rig = try await PickerRig()
        let sandbox = try FlatpakSandbox(appID: "org.example.Journal", bus: rig.bus)
        let first = try sandbox.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py"), "pick", "First"])
        try first.waitForOutput(containing: "handle ", in: .standardOutput, timeout: .seconds(15))
        let second = try sandbox.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py"), "pick", "Second"])
        #expect(second.standardOutput.hasPrefix("refused org.freedesktop.DBus.Error.LimitsExceeded")
            && second.standardOutput.contains("org.example.Journal has a PickMedia request open already"), "\(second)")
        let host = try rig.pickingApp(reason: "From the host")
        #expect(host.standardOutput.contains("handle "), "another app still picks")
        first.signal(SIGTERM)
        host.signal(SIGTERM)
    }

    @Test("item 10: Introspect shows another app's open request to no one: not listed, not there")
    func introspectionHidesOthersRequests() async throws {
        let rig = try await PickerRig()
        let owner = try FlatpakSandbox(appID: "org.example.Journal", bus: rig.bus)
        let app = try owner.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py"), "pick", "Private"])
        try app.waitForOutput(containing: "handle ", in: .standardOutput, timeout: .seconds(15))
        let handle = try #require(app.standardOutput.split(separator: "\n").first { $0.hasPrefix("handle ") }?.dropFirst("handle ".count))
        let callerElement = try #require(handle.split(separator: "/").dropLast().last)

        let snoop = try FlatpakSandbox(appID: "org.example.Snoop", bus: rig.bus)
        for path in ["/org/mediabroker/MediaBroker1", "/org/mediabroker/MediaBroker1/request", String(handle)] {
            let seen = try snoop.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py"), "introspect", path])
            #expect(seen.status == .exited(0), "\(seen)")
            #expect(!seen.standardOutput.contains(String(callerElement)) && !seen.standardOutput.contains("<interface name=\"org.freedesktop.portal.Request\""),
                    "\(path): \(seen.standardOutput)")
        }
        app.signal(SIGTERM)
    }

    @Test("item 6: Donate's reply tells an app that may not read nothing of others' listens")
    func donationRepliesTellNothing() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let client = try broker.client()
        let sandbox = try FlatpakSandbox(appID: "org.example.Journal", bus: bus)
        let donate = { try sandbox.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("app.py"), "donate", "1"]).standardOutput }
        let before = try donate()
        for title in ["Someone Else's", "Another", "And Another"] {
            _ = try await client.donate(Donation(appID: "mpv", title: title, artists: ["Band"], length: .seconds(200)))
        }
        let after = try donate()
        #expect(before.hasPrefix("ok 0\n") && after.hasPrefix("ok 0\n"), "\(before) \(after)")
        let kept = try await broker.assets(client).filter { $0.appID == "org.example.Journal" }
        #expect(!kept.isEmpty, "the donations are recorded all the same")
        let hostID = try await client.donate(Donation(appID: "mpv", title: "From the host", artists: ["Band"], length: .seconds(200)))
        #expect(hostID > 0, "the host, which may read, is told the id")
    }

    @Test("item 9: an app id with a line break is refused, and a restart finds no reader it smuggled into the settings")
    func settingsLinesCannotBeInjected() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        do {
            try await broker.client().setAppOptedOut("x\nreader=allowed:1:-:org.evil.App", true)
            Issue.record("an app id with a line break was taken")
        } catch {
            #expect("\(error)".contains("InvalidArgs") || "\(error)".contains("app id"), "\(error)")
        }
        try broker.stop()
        let again = try RunningBroker(bus: bus, data: broker.data)
        #expect(try await again.client().readers().isEmpty)
        #expect(try await again.client().status().version.isEmpty == false)
    }

    @Test("item 8: a RecentMedia filter and a Donate of 4,000,000 strings are refused before they are decoded, and the broker serves on in little memory")
    func hugeCallsAreRefusedUnread() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let sandbox = try FlatpakSandbox(appID: "org.example.Journal", bus: bus)
        let app = try sandbox.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("app.py"), "huge", "4000000"], timeout: .seconds(150))
        let answers = app.standardOutput.split(separator: "\n")
        for method in ["RecentMedia", "Donate"] {
            let answer = answers.first { $0.split(separator: " ").dropFirst().first == Substring(method) } ?? "no answer"
            #expect(answer.hasPrefix("refused \(method) org.freedesktop.DBus.Error.InvalidArgs") && answer.contains("bytes"),
                    "\(answer) (\(app.status)) \(app.standardError.suffix(500))")
        }
        let other = try BusConnection.connect(to: bus.address)
        defer { other.close() }
        let version = try await Reliability.call(other, "Get", [.string("org.mediabroker.MediaBroker1"), .string("Version")], interface: .properties)
        #expect(version.arguments == [.variant(.uint32(5))])
        let peak = try Reliability.status(broker.process.pid, "VmHWM")
        #expect(peak <= Self.hugeCallsPeakRSS, "peak RSS \(peak) kB")
    }

    /// The broker's peak RSS around the calls of `hugeCallsAreRefusedUnread`, in kB. Each is 32 MB
    /// on the wire, which libdbus holds twice as it reads it (what it read, and the message made of
    /// it): refused unread, the broker peaked at 80 MB; decoding them, at 357 MB.
    static let hugeCallsPeakRSS = 128 * 1024
}
