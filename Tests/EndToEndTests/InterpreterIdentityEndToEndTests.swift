import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 31 with real processes: a player written in Python (`Tests/Fixtures/python-player.py`,
/// whose `/proc/PID/exe` is the interpreter) is recorded as the player it says it is, never as
/// Python — even with Python's own desktop file installed — and a Python app asking `PickMedia`
/// on the host is never called Python.
@Suite(.serialized, .timeLimit(.minutes(3))) struct InterpreterIdentityEndToEndTests {
    /// Desktop files on `XDG_DATA_DIRS` ahead of the system's: the interpreter's own (as Debian
    /// ships `python3.11.desktop`), so the trap is there on every machine, and `more`.
    private static func applications(_ more: [String: String] = [:]) throws -> TemporaryDirectory {
        let data = try TemporaryDirectory(prefix: "interpreter-apps")
        let interpreter = URL(fileURLWithPath: "/usr/bin/python3").resolvingSymlinksInPath().lastPathComponent
        var files = more
        files["applications/\(interpreter).desktop"] = "[Desktop Entry]\nType=Application\nName=Python (\(interpreter))\nExec=\(interpreter)\n"
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: (data.appending(path) as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try text.write(toFile: data.appending(path), atomically: true, encoding: .utf8)
        }
        return data
    }

    private static func broker(_ bus: PrivateBus, applications: TemporaryDirectory) throws -> RunningBroker {
        try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"],
                          environment: ["XDG_DATA_DIRS": applications.path + ":/usr/local/share:/usr/share"])
    }

    /// Starts the Python player `name`, lets it play `title` for 0.8 s, stops it and waits until it left.
    private static func play(_ title: String, on name: String, desktopEntry: String = "", identity: String,
                             bus: PrivateBus, broker: RunningBroker) async throws {
        let client = try broker.client()
        let player = try ChildProcess.launch("/usr/bin/python3", arguments: [
            FlatpakSandbox.fixture("python-player.py"), name, desktopEntry, identity, title,
        ], environment: bus.environment)
        try player.waitForOutput(containing: "ready", in: .standardOutput, timeout: .seconds(15))
        let busName = "org.mpris.MediaPlayer2." + name
        try await waitUntil("the broker sees \(name) playing", timeout: .seconds(10)) {
            try await client.status().players.contains { $0.busName == busName && $0.playbackStatus == "Playing" }
        }
        try await PlayClock().play(for: .milliseconds(800))
        player.signal(SIGUSR1)
        try await waitUntil("the broker sees \(name) stopped", timeout: .seconds(10)) {
            try await client.status().players.contains { $0.busName == busName && $0.playbackStatus == "Stopped" }
        }
        player.signal(SIGTERM)
        _ = try player.waitForExit(timeout: .seconds(10))
        try await broker.waitUntilNoPlayers(client)
    }

    @Test("a Python player whose names match no desktop file is recorded under its bus-name stem, not as Python")
    func recordedUnderItsStem() async throws {
        let bus = try PrivateBus.start()
        let broker = try Self.broker(bus, applications: try Self.applications())
        try await Self.play("Bridged Song", on: "spotify", desktopEntry: "spotify", identity: "Spotify", bus: bus, broker: broker)
        let assets = try await broker.assets(try broker.client())
        #expect(assets.map(\.appID) == ["spotify"], "\(assets)")
        #expect(assets.first?.appName == "Spotify")
    }

    @Test("a Python player is recorded as the Flatpak export its names match, with the export's largest icon")
    func recordedAsTheFlatpakExport() async throws {
        let png = "\u{89}PNG\r\n\u{1a}\n"
        let applications = try Self.applications([
            "applications/com.spotify.Client.desktop": "[Desktop Entry]\nType=Application\nName=Spotify\nIcon=com.spotify.Client\n",
            "icons/hicolor/index.theme": "[Icon Theme]\nName=Hicolor\nDirectories=48x48/apps,256x256/apps\n\n"
                + "[48x48/apps]\nSize=48\nType=Fixed\n\n[256x256/apps]\nSize=256\nType=Fixed\n",
            "icons/hicolor/48x48/apps/com.spotify.Client.png": png,
            "icons/hicolor/256x256/apps/com.spotify.Client.png": png,
        ])
        let bus = try PrivateBus.start()
        let broker = try Self.broker(bus, applications: applications)
        try await Self.play("Bridged Song", on: "spotify", desktopEntry: "spotify", identity: "Spotify", bus: bus, broker: broker)
        let assets = try await broker.assets(try broker.client())
        #expect(assets.map(\.appID) == ["com.spotify.Client"], "\(assets)")
        #expect(assets.first?.appIcon == applications.appending("icons/hicolor/256x256/apps/com.spotify.Client.png"))
    }

    @Test("two Python players are two apps, and opting one out leaves the other recorded")
    func twoPythonPlayersAreTwoApps() async throws {
        let bus = try PrivateBus.start()
        let broker = try Self.broker(bus, applications: try Self.applications())
        let client = try broker.client()
        try await Self.play("Radio One", on: "radiotray", identity: "Radio Tray", bus: bus, broker: broker)
        try await Self.play("Episode One", on: "podcastbridge", identity: "Podcasts", bus: bus, broker: broker)
        #expect(Set(try await client.apps().map(\.appID)) == ["radiotray", "podcastbridge"])

        try await client.setAppOptedOut("radiotray", true)
        try await Self.play("Radio Two", on: "radiotray", identity: "Radio Tray", bus: bus, broker: broker)
        try await Self.play("Episode Two", on: "podcastbridge", identity: "Podcasts", bus: bus, broker: broker)
        let titles = try await broker.assets(client).map(\.title)
        #expect(titles.contains("Episode Two"), "\(titles)")
        #expect(!titles.contains("Radio Two"), "\(titles)")
    }

    @Test("a Python app on the host asking PickMedia is not called Python: it is named plainly")
    func aPythonAskerIsNamedPlainly() async throws {
        let rig = try await PickerRig()
        let app = try rig.pickingApp(reason: "From a script")
        _ = try rig.drive(PickerRig.window(reason: "From a script"), [
            "press:Continue", "expect:Recommended", "expect:An app on this computer asks for music you listened to. It gets only what you share.",
        ])
        #expect(try ScreenshotTests.windowTitle(startingWith: PickerRig.pickerTitle, on: rig.display) == "Share Listening")
        _ = try rig.drive(PickerRig.window(reason: "From a script"), ["press:Cancel", "gone"])
        #expect(try PickerRig.response(of: app).code == 1)
    }

    @Test("a Python app on the host that owns its app id is named by that app's desktop file")
    func anAskerOwningItsAppIdIsNamedByIt() async throws {
        let applications = try Self.applications([
            "applications/org.example.Journal.desktop": "[Desktop Entry]\nType=Application\nName=Example Journal\nExec=journal\n",
        ])
        let rig = try await PickerRig(applications: applications)
        let app = try rig.pickingApp(reason: "From the journal", owning: "org.example.Journal")
        _ = try rig.drive(PickerRig.window(reason: "From the journal"), [
            "press:Continue", "expect:Recommended", "expect:Example Journal asks for music you listened to. It gets only what you share.",
        ])
        #expect(try ScreenshotTests.windowTitle(startingWith: PickerRig.pickerTitle, on: rig.display) == "Share Listening with Example Journal")
        _ = try rig.drive(PickerRig.window(reason: "From the journal"), ["press:Cancel", "gone"])
        #expect(try PickerRig.response(of: app).code == 1)
    }
}
