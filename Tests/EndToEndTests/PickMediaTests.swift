import Foundation
import MediaDonationClient
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 21 with a real window: an app calls `PickMedia`, the broker shows `media-broker-picker`
/// on an X display, and the test drives the window through AT-SPI as a person would. The app's
/// `Response` holds exactly what was left ticked, and nothing when the person cancels, the
/// picker dies, or the app closes the request.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PickMediaTests {
    @Test("open a moment, untick one listen, Share: the app gets exactly the rest, with the moment")
    func sharesWhatIsTicked() async throws {
        let rig = try await PickerRig()
        let app = try rig.pickingApp(reason: "Add music to today's entry")
        _ = try rig.drive(PickerRig.window(reason: "Add music to today's entry"), [
            "press:Continue", "press:\(rig.momentButton)", "toggle:\(PickerRig.checkBox(rig.album[1]))", "press:Share", "gone",
        ])
        let (code, results) = try PickerRig.response(of: app)
        let kept = [rig.album[0], rig.album[2], rig.album[3]].map(\.id)
        #expect(code == 0)
        #expect(results.assets == kept)
        #expect(results.moment == PickerRig.PickResults.Moment(id: rig.moment.id, asset_ids: kept))
        #expect(results.keys == ["assets", "moment"], "nothing but what was picked")
    }

    @Test("the explanation shows the first time only; a single listen is shared alone")
    func explainsOnce() async throws {
        let rig = try await PickerRig()
        let first = try rig.pickingApp(reason: "First")
        _ = try rig.drive(PickerRig.window(reason: "First"), ["expect:Share What You Listened To", "press:Cancel", "gone"])
        #expect(try PickerRig.response(of: first).code == 1, "read but not continued: shown again next time")

        let second = try rig.pickingApp(reason: "Second")
        _ = try rig.drive(PickerRig.window(reason: "Second"), ["press:Continue", "press:\(rig.singleButton)", "press:Share", "gone"])
        let shared = try PickerRig.response(of: second)
        #expect(shared.code == 0 && shared.results.assets == [rig.single.id] && shared.results.moment == nil, "\(shared)")

        let third = try rig.pickingApp(reason: "Third")
        _ = try rig.drive(PickerRig.window(reason: "Third"), ["press:\(rig.singleButton)", "press:Share", "gone"])
        #expect(try PickerRig.response(of: third).results.assets == [rig.single.id], "no explanation the second time")
    }

    @Test("Cancel answers 1 and nothing")
    func cancelGivesNothing() async throws {
        let rig = try await PickerRig()
        let app = try rig.pickingApp(reason: "Cancel me")
        _ = try rig.drive(PickerRig.window(reason: "Cancel me"), ["press:Continue", "press:\(rig.momentButton)", "press:Cancel", "gone"])
        let (code, results) = try PickerRig.response(of: app)
        #expect(code == 1)
        #expect(results == PickerRig.PickResults(keys: [], assets: [], moment: nil))
    }

    @Test("a picker killed answers 2 and nothing")
    func killedPickerEnds() async throws {
        let rig = try await PickerRig()
        let app = try rig.pickingApp(reason: "Kill me")
        _ = try rig.drive(PickerRig.window(reason: "Kill me"), ["press:Continue", "press:\(rig.momentButton)"])
        let pickers = try rig.pickerProcesses()
        #expect(pickers.count == 1)
        for pid in pickers { kill(pid, SIGKILL) }
        let (code, results) = try PickerRig.response(of: app)
        #expect(code == 2)
        #expect(results == PickerRig.PickResults(keys: [], assets: [], moment: nil))
    }

    @Test("Close() on the request takes the window away, and no Response comes")
    func closeTakesTheWindowAway() async throws {
        let rig = try await PickerRig()
        let app = try rig.pickingApp(reason: "Close me")
        _ = try rig.drive(PickerRig.window(reason: "Close me"), ["press:Continue"])
        app.signal(SIGUSR1)
        try app.waitForOutput(containing: "closed", in: .standardOutput, timeout: .seconds(10))
        _ = try rig.drive(PickerRig.pickerTitle, ["gone"])
        try waitUntil("the picker exits", timeout: .seconds(10)) { try rig.pickerProcesses().isEmpty }
        // The broker has forgotten the request: a Response sent before this call returned would
        // have reached the app first.
        _ = try await rig.broker.client().status()
        #expect(!app.standardOutput.contains("response"), "\(app.standardOutput)")
    }

    @Test("two apps picking at once each get only their own pick")
    func twoAppsAtOnce() async throws {
        let rig = try await PickerRig()
        let first = try rig.pickingApp(reason: "Entry A")
        let second = try rig.pickingApp(reason: "Entry B")
        try waitUntil("two pickers run", timeout: .seconds(15)) { try rig.pickerProcesses().count == 2 }
        _ = try rig.drive(PickerRig.window(reason: "Entry B"), ["press:Continue", "press:\(rig.singleButton)", "press:Share", "gone"])
        _ = try rig.drive(PickerRig.window(reason: "Entry A"), [
            "press:Continue", "press:\(rig.momentButton)", "toggle:\(PickerRig.checkBox(rig.album[0]))", "press:Share", "gone",
        ])
        let a = try PickerRig.response(of: first), b = try PickerRig.response(of: second)
        #expect(a.code == 0 && a.results.assets == rig.album.dropFirst().map(\.id), "\(a)")
        #expect(b.code == 0 && b.results.assets == [rig.single.id] && b.results.moment == nil, "\(b)")
    }

    @Test("a sandboxed app with no grant is told who asks, gets its pick, and still reads nothing")
    func sandboxedAppPicks() async throws {
        let applications = try TemporaryDirectory(prefix: "picker-apps")
        try FileManager.default.createDirectory(atPath: applications.appending("applications"), withIntermediateDirectories: true)
        try """
            [Desktop Entry]
            Type=Application
            Name=Example Journal
            Exec=journal
            """.write(toFile: applications.appending("applications/org.example.Journal.desktop"), atomically: true, encoding: .utf8)
        let rig = try await PickerRig(applications: applications)
        let sandbox = try FlatpakSandbox(appID: "org.example.Journal", bus: rig.bus)
        let recent = try sandbox.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py"), "recent"])
        #expect(recent.standardOutput.contains("refused org.mediabroker.MediaBroker1.Error.AccessDenied"), "\(recent)")

        let app = try sandbox.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py"), "pick", "From the sandbox"])
        try app.waitForOutput(containing: "handle ", in: .standardOutput, timeout: .seconds(15))
        _ = try rig.drive(PickerRig.window(reason: "From the sandbox"), [
            "press:Continue", "expect:Example Journal asks for music you listened to. It gets only what you share.",
            "press:\(rig.singleButton)", "press:Share", "gone",
        ])
        let (code, results) = try PickerRig.response(of: app)
        #expect(code == 0 && results.assets == [rig.single.id], "\(results)")
        let after = try sandbox.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py"), "recent"])
        #expect(after.standardOutput.contains("refused"), "a pick is no grant: \(after)")
    }

    @Test("the Swift client's pickMedia returns what was shared, and cancelling its task closes the picker")
    func swiftClient() async throws {
        let rig = try await PickerRig()
        let client = try MediaBrokerClient(address: rig.bus.address, timeout: .seconds(10))
        let pick = Task { try await client.pickMedia(reason: "From Swift") }
        _ = try rig.drive(PickerRig.window(reason: "From Swift"), [
            "press:Continue", "press:\(rig.momentButton)", "toggle:\(PickerRig.checkBox(rig.album[3]))", "press:Share", "gone",
        ])
        guard case .shared(let assets, let moment) = try await pick.value else { throw TestSupportError("not shared") }
        #expect(assets.map(\.id) == rig.album.prefix(3).map(\.id))
        #expect(assets.map(\.title) == rig.album.prefix(3).map(\.title), "whole assets, not ids alone")
        #expect(moment?.id == rig.moment.id && moment?.assetIDs == rig.album.prefix(3).map(\.id) && moment?.count == 3)

        let abandoned = Task { try await client.pickMedia(reason: "Abandoned") }
        _ = try rig.drive(PickerRig.window(reason: "Abandoned"), ["expect:Recommended"])
        abandoned.cancel()
        #expect(try await abandoned.value == .cancelled)
        _ = try rig.drive(PickerRig.pickerTitle, ["gone"])
        try waitUntil("the picker exits", timeout: .seconds(10)) { try rig.pickerProcesses().isEmpty }
    }

    @Test("the picker stays over the app's window: transient for the x11:XID the app names")
    func transientForTheAppsWindow() async throws {
        let rig = try await PickerRig()
        // xev's window ("Event Tester") stands in for the journaling app's.
        let appWindow = try ChildProcess.launch("xev", arguments: [], environment: rig.display.environment)
        defer { appWindow.signal(SIGTERM) }
        var parent = ""
        try waitUntil("the app's window shows", timeout: .seconds(10)) {
            let found = try ChildProcess.run("xdotool", arguments: ["search", "--name", "^Event Tester$"], environment: rig.display.environment)
            parent = found.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
            return !parent.isEmpty
        }
        let xid = String(UInt64(parent) ?? 0, radix: 16)
        let app = try rig.pickingApp(reason: "Over my window", parentWindow: "x11:" + xid)
        _ = try rig.drive(PickerRig.window(reason: "Over my window"), ["expect:Continue"])
        let picker = try ScreenshotTests.windowTitle(startingWith: PickerRig.pickerTitle, on: rig.display)
        let found = try ChildProcess.run("xdotool", arguments: ["search", "--name", "^" + NSRegularExpression.escapedPattern(for: picker) + "$"],
                                         environment: rig.display.environment)
        let pickerWindow = try #require(found.standardOutput.split(separator: "\n").first.map(String.init))
        let hint = try ChildProcess.run("xprop", arguments: ["-id", pickerWindow, "WM_TRANSIENT_FOR"], environment: rig.display.environment)
        #expect(hint.standardOutput.contains("window id # 0x" + xid), "\(hint.standardOutput)")
        _ = try rig.drive(PickerRig.window(reason: "Over my window"), ["press:Cancel", "gone"])
        #expect(try PickerRig.response(of: app).code == 1)
    }

    @Test("the picker works with the keyboard alone")
    func keyboardAlone() async throws {
        let rig = try await PickerRig()
        let app = try rig.pickingApp(reason: "Keys only")
        let window = PickerRig.window(reason: "Keys only")
        // Alt+C continues and the keyboard is on the first moment; Return opens it and the
        // keyboard moves to its first listen; Tab, space unticks the second; Alt+S shares.
        _ = try rig.drive(window, ["keys:alt+c", "focused:\(rig.momentButton)",
                                   "keys:Return", "focused:\(PickerRig.checkBox(rig.album[0]))",
                                   "keys:Tab space", "keys:alt+s", "gone"])
        let (code, results) = try PickerRig.response(of: app)
        #expect(code == 0)
        #expect(results.assets == [rig.album[0], rig.album[2], rig.album[3]].map(\.id))
    }

    @Test("every control of the picker has an accessible name and a role")
    func everyControlNamed() async throws {
        let rig = try await PickerRig()
        let app = try rig.pickingApp(reason: "Names")
        let listing = try rig.drive(PickerRig.window(reason: "Names"), ["press:Continue", "press:\(rig.momentButton)", "control:\(PickerRig.checkBox(rig.album[0]))", "controls"])
        let controls = listing.split(separator: "\n").map { $0.split(separator: "\t", maxSplits: 1).map(String.init) }
        #expect(controls.count >= 10, "\(listing)")
        for control in controls {
            #expect(control.count == 2 && !control[1].isEmpty, "a control without a name: \(control)")
        }
        let roles = Set(controls.compactMap(\.first))
        #expect(roles.isSuperset(of: ["push button", "check box"]), "\(roles)")
        _ = try rig.drive(PickerRig.window(reason: "Names"), ["press:Cancel", "gone"])
        #expect(try PickerRig.response(of: app).code == 1)
    }

    @Test("without a display, or without the picker, PickMedia says so and opens nothing")
    func refusedWithoutAWindow() async throws {
        let bus = try PrivateBus.start()
        let headless = try RunningBroker(bus: bus)
        let app = try ChildProcess.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py"), "pick", "Headless"],
                                       environment: bus.environment)
        #expect(app.standardOutput.contains("refused org.freedesktop.DBus.Error.NotSupported"), "\(app)")
        #expect(app.standardOutput.contains("DISPLAY"), "the error names what is missing: \(app.standardOutput)")
        try headless.stop()

        let display = try VirtualDisplay()
        let missing = try RunningBroker(bus: bus, arguments: ["--min-listen", "2", "--picker", "/nonexistent/media-broker-picker"],
                                        environment: display.environment)
        let again = try ChildProcess.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py"), "pick", "No picker"],
                                         environment: bus.environment)
        #expect(again.standardOutput.contains("refused org.freedesktop.DBus.Error.Failed"), "\(again)")
        #expect(again.standardOutput.contains("media-broker-picker package"), "\(again.standardOutput)")
        try missing.stop()
    }
}
