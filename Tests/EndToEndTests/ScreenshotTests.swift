import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// The pictures in the README: the picker wide (the list beside the moment, large art) and narrow
/// (one pane, a way back), and the settings window — each taken from the real window, each
/// checked to show something and to differ from the others. A run leaves them in
/// ``Screenshot/folder()``; `docs/screenshots` holds a copy.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ScreenshotTests {
    static let reason = "Add music to today's entry"

    @Test("the picker wide and narrow and the settings window draw, each differently")
    func windowsDraw() async throws {
        let rig = try await PickerRig()
        let folder = try Screenshot.folder()
        let app = try rig.pickingApp(reason: Self.reason)
        _ = try rig.drive(PickerRig.window(reason: Self.reason), ["press:Continue", "press:\(rig.momentButton)"])
        let title = try Self.windowTitle(startingWith: PickerRig.pickerTitle, on: rig.display)
        let wide = try Screenshot.take(windowTitled: title, on: rig.display, to: folder + "/picker-wide.png")
        try Self.resize(title, width: 420, height: 760, on: rig.display)
        // Narrow, one pane shows at a time: the moment's listens, with a way back to the list.
        _ = try rig.drive(PickerRig.window(reason: Self.reason), ["expect:Back to the list"])
        let narrow = try Screenshot.take(windowTitled: title, on: rig.display, to: folder + "/picker-narrow.png")
        _ = try rig.drive(PickerRig.window(reason: Self.reason), ["press:Cancel", "gone"])
        #expect(try PickerRig.response(of: app).code == 1)

        let settings = try ChildProcess.launch(
            try BuiltProducts.path(of: "media-broker-picker"), arguments: ["--settings"],
            environment: rig.bus.environment.merging(rig.display.environment) { $1 })
        defer { settings.signal(SIGTERM) }
        _ = try rig.drive(SettingsWindowTests.title, ["expect:Record listening"])
        let preferences = try Screenshot.take(windowTitled: SettingsWindowTests.title, on: rig.display, to: folder + "/settings.png")

        for shot in [wide, narrow, preferences] { #expect(shot.colourCount > 50, "\(shot.path) drew something") }
        #expect(wide.width > narrow.width)
        #expect(wide.differs(from: narrow) && wide.differs(from: preferences) && narrow.differs(from: preferences))
    }

    static func windowTitle(startingWith prefix: String, on display: VirtualDisplay) throws -> String {
        let found = try ChildProcess.run("xdotool", arguments: ["search", "--name", "^" + prefix], environment: display.environment)
        guard let window = found.standardOutput.split(separator: "\n").first else { throw TestSupportError("no window titled \(prefix)…") }
        return try ChildProcess.run("xdotool", arguments: ["getwindowname", String(window)], environment: display.environment)
            .standardOutput.trimmingCharacters(in: .newlines)
    }

    static func resize(_ title: String, width: Int, height: Int, on display: VirtualDisplay) throws {
        let result = try ChildProcess.run("xdotool", arguments: [
            "search", "--name", "^" + NSRegularExpression.escapedPattern(for: title) + "$", "windowsize", "--sync", String(width), String(height),
        ], environment: display.environment)
        guard result.status == .exited(0) else { throw TestSupportError("xdotool could not resize \(title): \(result.standardError)") }
    }
}
