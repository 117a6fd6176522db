import Foundation
import MediaDonationClient
import TestSupport

/// A person's desktop for the picker (issue 21): a private bus, an X display (or a Wayland
/// compositor, issue 36), the accessibility bus, a broker that shows its picker there, and a history of one album's moment (four tracks)
/// and a single listen hours earlier, in a time zone where it is early afternoon. Windows are driven through AT-SPI by
/// `Tests/Fixtures/picker-driver.py`, apps are `Tests/Fixtures/pick-app.py`.
final class PickerRig: Sendable {
    let bus: PrivateBus
    /// Where the broker's windows show: an X display unless the rig was given another screen.
    let screen: any DisplayServer
    /// The X display, for tests that drive windows with X's tools; only rigs on X have one.
    var display: VirtualDisplay { screen as! VirtualDisplay }
    /// The Wayland compositor, for rigs given one.
    var compositor: WaylandCompositor? { screen as? WaylandCompositor }
    let accessibility: AccessibilityBus
    let broker: RunningBroker
    let configuration: TemporaryDirectory
    /// Hours east of UTC of the broker's time zone (``MiddayTimeZone``).
    let hoursEast: Int
    /// The album's listens, oldest first, and the single listen.
    let album: [GenericMedia]
    let single: GenericMedia
    /// The album's moment, and the accessible name of its button in the list: its title, then its line.
    let moment: Moment
    var momentButton: String { moment.title + ", " + (moment.summary ?? "") }
    /// The accessible name of the single listen in *Recent*: its title, then its line.
    var singleButton: String { (single.title ?? "") + ", " + (single.summary ?? "") }

    static let albumTitles = ["Angel", "Risingson", "Teardrop", "Inertia Creeps"]

    /// The title of every picker window starts so; "with" and the app's name follow when the broker
    /// could name the app.
    static let pickerTitle = "Share Listening"

    /// - Parameters:
    ///   - applications: desktop files the broker can name apps by (`XDG_DATA_HOME`).
    ///   - brokerEnvironment: more of the broker's environment (what a journal app it starts reads).
    ///   - screen: where the windows show (a Wayland compositor, a larger X display), started on the
    ///     bus it is given (the rig's); an X display (Xvfb) of 1280×800 without it.
    init(applications: TemporaryDirectory? = nil, brokerEnvironment: [String: String] = [:],
         screen: ((PrivateBus) throws -> any DisplayServer)? = nil) async throws {
        bus = try PrivateBus.start()
        self.screen = try screen?(bus) ?? VirtualDisplay()
        configuration = try TemporaryDirectory(prefix: "picker-config")
        var environment = self.screen.environment
        environment["XDG_CONFIG_HOME"] = configuration.path
        let started = Date()
        hoursEast = MiddayTimeZone.hoursEast(at: started)
        environment["TZ"] = MiddayTimeZone.at(started)
        if let applications { environment["XDG_DATA_HOME"] = applications.path }
        accessibility = try AccessibilityBus(bus: bus, environment: environment)
        broker = try RunningBroker(bus: bus, environment: environment.merging(brokerEnvironment) { $1 })
        let client = try broker.client()
        let now = Date()
        for (index, title) in Self.albumTitles.enumerated() {
            _ = try await client.donate(Donation(
                appID: "org.example.Radio", title: title, artists: ["Massive Attack"], album: "Mezzanine",
                started: now.addingTimeInterval(Double(index - 4) * 300), length: .seconds(280), listened: .seconds(280)))
        }
        _ = try await client.donate(Donation(appID: "mpv", title: "Lonely Song", artists: ["Solo"],
                                             started: now.addingTimeInterval(-5 * 3600), length: .seconds(200)))
        let recent = try await client.recentMedia()
        album = recent.filter { $0.appID == "org.example.Radio" }.sorted { $0.date < $1.date }
        guard let single = recent.first(where: { $0.appID == "mpv" }), album.count == 4 else {
            throw TestSupportError("the donations did not all land: \(recent.map(\.title))")
        }
        self.single = single
        guard let moment = try await client.moments().first(where: { $0.album == "Mezzanine" }) else {
            throw TestSupportError("no moment of the album")
        }
        self.moment = moment
    }

    /// `pick-app.py pick` on the host (owning the well-known name `owning`, with a suggestion's id,
    /// if given), waiting until it has its request's handle. With `overItsWindow`, `pick-over-window`:
    /// the app shows a window on the rig's Wayland compositor and picks over it.
    func pickingApp(reason: String, parentWindow: String = "", owning name: String? = nil, suggestion: String? = nil,
                    overItsWindow: Bool = false) throws -> ChildProcess {
        var environment = bus.environment
        if let name { environment["PICK_APP_OWNS"] = name }
        if let suggestion { environment["PICK_APP_SUGGESTION"] = suggestion }
        if overItsWindow { environment.merge(screen.environment) { $1 } }
        let arguments = overItsWindow ? ["pick-over-window", reason] : ["pick", reason, parentWindow]
        let app = try ChildProcess.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py")] + arguments,
                                          environment: environment)
        try app.waitForOutput(containing: "handle /org/mediabroker/MediaBroker1/request/", in: .standardOutput, timeout: .seconds(15))
        return app
    }

    /// Runs the driver's `steps` on the picker window of the app whose reason is `reason` (or any).
    func drive(_ window: String, _ steps: [String], timeout: Duration = .seconds(60)) throws -> String {
        let result = try ChildProcess.run(
            "/usr/bin/python3", arguments: [FlatpakSandbox.fixture("picker-driver.py"), window] + steps,
            environment: bus.environment.merging(screen.environment) { $1 }, timeout: timeout)
        guard result.status == .exited(0) else {
            throw TestSupportError("picker-driver \(steps) failed (\(result.status)):\n\(result.standardError)\n"
                + "broker:\n\(broker.process.standardError.suffix(3000))")
        }
        return result.standardOutput
    }

    /// The picker window of the app asking with `reason`.
    static func window(reason: String) -> String { pickerTitle + "@" + reason }


    /// The check box of a listen: its summary.
    static func checkBox(_ asset: GenericMedia) -> String { asset.summary ?? asset.title ?? "" }

    /// Waits for the app's Response line and reads it.
    static func response(of app: ChildProcess, timeout: Duration = .seconds(20)) throws -> (code: Int, results: PickResults) {
        try app.waitForOutput(containing: "response ", in: .standardOutput, timeout: timeout)
        guard let line = app.standardOutput.split(separator: "\n").first(where: { $0.hasPrefix("response ") }) else {
            throw TestSupportError("no response line in \(app.standardOutput)")
        }
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, let code = Int(parts[1]) else { throw TestSupportError("a response line unlike any: \(line)") }
        return (code, try JSONDecoder().decode(PickResults.self, from: Data(parts[2].utf8)))
    }

    struct PickResults: Decodable, Equatable {
        struct Moment: Decodable, Equatable {
            var id: String
            var asset_ids: [Int64]
        }
        var keys: [String]
        var assets: [Int64]
        var moment: Moment?
    }

    /// The broker's picker processes (its children).
    func pickerProcesses() throws -> [Int32] {
        let result = try ChildProcess.run("pgrep", arguments: ["-P", String(broker.process.pid), "-f", "media-broker-picker"])
        return result.standardOutput.split(separator: "\n").compactMap { Int32($0) }
    }
}
