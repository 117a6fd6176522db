import Foundation
import TestSupport
import Testing

/// Issue 36 §1 for the settings window: on each Wayland compositor (no `DISPLAY`) it shows, is
/// driven through AT-SPI — a change made in its dialog reaches the broker — and GNOME Shell and
/// KWin picture it. A compositor that cannot start here skips its case, saying why.
@Suite(.serialized, .timeLimit(.minutes(3))) struct WaylandSettingsWindowTests {
    @Test("on each compositor the settings window works on Wayland alone; GNOME Shell and KWin picture it",
          arguments: WaylandCompositor.Kind.allCases)
    func settingsOnWayland(kind: WaylandCompositor.Kind) async throws {
        let (rig, compositor) = try await WaylandPickerTests.rig(on: kind)
        let settings = try ChildProcess.launch(
            try BuiltProducts.path(of: "media-broker-picker"), arguments: ["--settings"],
            environment: rig.bus.environment.merging(compositor.environment) { $1 })
        defer { settings.signal(SIGTERM) }
        _ = try rig.drive(SettingsWindowTests.title, ["expect:Record listening"])
        if kind != .mutter {
            let window = try compositor.window(titled: SettingsWindowTests.title)
            let shot = try compositor.screenshot(of: window, to: try Screenshot.folder() + "/settings-\(kind)-wayland.png")
            #expect(shot.colourCount > 50, "\(shot.path) drew something")
        }
        _ = try rig.drive(SettingsWindowTests.title, ["press:Change…"])
        _ = try rig.drive("@An app you have not switched on or off yet", ["press:Ask me first", "gone"])
        let client = try rig.broker.client()
        try await waitUntil("new apps are asked about", timeout: .seconds(10)) { try await client.newApps() == .ask }
        _ = try rig.drive(SettingsWindowTests.title, ["expect:You are asked before one is recorded"])
    }
}
