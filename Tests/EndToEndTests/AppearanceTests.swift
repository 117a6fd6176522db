import Foundation
import TestSupport
import Testing

/// Issue 36 §4: the windows look like the desktop's — light or dark as the settings portal says
/// (`org.freedesktop.appearance color-scheme`, KDE Plasma's way), or where no portal answers as
/// GNOME's setting says (`org.gnome.desktop.interface color-scheme`, through GSettings; here from
/// its keyfile backend, as dconf needs a session) — and
/// twice the size, sharp, on a 2× display (`GDK_SCALE=2` on X11, a monitor at 2× on Wayland). Each
/// picture is left in ``Screenshot/folder()``; `docs/screenshots` holds copies.
@Suite(.serialized, .timeLimit(.minutes(3))) struct AppearanceTests {
    static let reason = "Add music to today's entry"

    /// Pictures of the picker (an open moment) and of the settings window, each run with `style`
    /// in its environment, saved as picker-`name`.png and settings-`name`.png.
    static func pictures(_ rig: PickerRig, style: [String: String], name: String) throws -> (picker: Screenshot, settings: Screenshot) {
        let folder = try Screenshot.folder()
        let app = try rig.pickingApp(reason: reason)
        _ = try rig.drive(PickerRig.window(reason: reason), ["press:Continue", "press:\(rig.momentButton)",
                                                             "control:\(PickerRig.checkBox(rig.album[0]))"])
        let title = try ScreenshotTests.windowTitle(startingWith: PickerRig.pickerTitle, on: rig.display)
        let picker = try Screenshot.take(windowTitled: title, on: rig.display, to: folder + "/picker-\(name).png")
        _ = try rig.drive(PickerRig.window(reason: reason), ["press:Cancel", "gone"])
        #expect(try PickerRig.response(of: app).code == 1)
        return (picker, try settings(rig, style: style, to: folder + "/settings-\(name).png"))
    }

    /// A picture of the settings window run with `style` in its environment.
    static func settings(_ rig: PickerRig, style: [String: String], to path: String) throws -> Screenshot {
        let settings = try ChildProcess.launch(
            try BuiltProducts.path(of: "media-broker-picker"), arguments: ["--settings"],
            environment: rig.bus.environment.merging(rig.display.environment) { $1 }.merging(style) { $1 })
        defer { settings.signal(SIGTERM) }
        _ = try rig.drive(SettingsWindowTests.title, ["expect:Record listening"])
        let shot = try Screenshot.take(windowTitled: SettingsWindowTests.title, on: rig.display, to: path)
        settings.signal(SIGTERM)
        _ = try rig.drive(SettingsWindowTests.title, ["gone"])
        return shot
    }

    @Test("the picker and the settings window are light in the light scheme and dark in the dark one",
          arguments: [("light", "default"), ("dark", "prefer-dark")])
    func followTheColourScheme(name: String, scheme: String) async throws {
        let rig = try await PickerRig(brokerEnvironment: ["GSETTINGS_BACKEND": "keyfile"])
        // The broker's configuration folder is the picker's; the picker starts after this is written.
        let settingsFolder = rig.configuration.appending("glib-2.0/settings")
        try FileManager.default.createDirectory(atPath: settingsFolder, withIntermediateDirectories: true)
        try "[org/gnome/desktop/interface]\ncolor-scheme='\(scheme)'\n".write(toFile: settingsFolder + "/keyfile", atomically: true, encoding: .utf8)
        let style = ["GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": rig.configuration.path]
        let (picker, settings) = try Self.pictures(rig, style: style, name: name)
        for shot in [picker, settings] {
            #expect(shot.colourCount > 50, "\(shot.path) drew something")
            if name == "dark" {
                #expect(shot.meanLuminance < 0.3, "\(shot.path) is dark: \(shot.meanLuminance)")
            } else {
                #expect(shot.meanLuminance > 0.7, "\(shot.path) is light: \(shot.meanLuminance)")
            }
        }
    }

    @Test("dark when the settings portal says so, as KDE Plasma's does, over GNOME's light setting")
    func followThePortal() async throws {
        let rig = try await PickerRig(brokerEnvironment: ["GSETTINGS_BACKEND": "keyfile"])
        let settingsFolder = rig.configuration.appending("glib-2.0/settings")
        try FileManager.default.createDirectory(atPath: settingsFolder, withIntermediateDirectories: true)
        try "[org/gnome/desktop/interface]\ncolor-scheme='default'\n".write(toFile: settingsFolder + "/keyfile", atomically: true, encoding: .utf8)
        // color-scheme 1: prefer dark (org.freedesktop.appearance, the XDG desktop portal's own key).
        let portal = try ChildProcess.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("settings-portal.py"), "1"],
                                             environment: rig.bus.environment)
        defer { portal.signal(SIGTERM) }
        try portal.waitForOutput(containing: "ready", in: .standardOutput, timeout: .seconds(10))
        let style = ["GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": rig.configuration.path]
        let (picker, settings) = try Self.pictures(rig, style: style, name: "dark-portal")
        for shot in [picker, settings] {
            #expect(shot.colourCount > 50, "\(shot.path) drew something")
            #expect(shot.meanLuminance < 0.3, "\(shot.path) is dark: \(shot.meanLuminance)")
        }
        #expect(portal.standardOutput.contains("read org.freedesktop.appearance color-scheme"), "\(portal.standardOutput)")
    }

    @Test("on a 2× display the picker and the settings window are twice the size in pixels")
    func doubleScale() async throws {
        let scaled = ["GDK_SCALE": "2"]
        let rig = try await PickerRig(brokerEnvironment: scaled, screen: { _ in try VirtualDisplay(width: 2560, height: 1600) })
        let (picker, settings) = try Self.pictures(rig, style: scaled, name: "2x")
        let plain = try Self.settings(rig, style: [:], to: try Screenshot.folder() + "/settings-1x.png")
        // The picker opens at 960×640 points.
        #expect(picker.width == 1920 && picker.height == 1280, "\(picker.width)×\(picker.height)")
        #expect(settings.width == 2 * plain.width && settings.height == 2 * plain.height,
                "\(settings.width)×\(settings.height) against \(plain.width)×\(plain.height)")
        #expect(picker.colourCount > 50 && settings.colourCount > 50)
    }

    @Test("on a 2× Wayland monitor (GNOME Shell, KWin) the picker shows twice the size, drawn at 2×",
          arguments: [WaylandCompositor.Kind.gnomeShell, .kwin])
    func doubleScaleOnWayland(kind: WaylandCompositor.Kind) async throws {
        let rig: PickerRig
        do {
            // The picker, which writes on the broker's standard error, logs its Wayland requests.
            rig = try await PickerRig(brokerEnvironment: ["WAYLAND_DEBUG": "client"], screen: { try WaylandCompositor(kind, bus: $0, scale: 2) })
        } catch let error as WaylandCompositor.CannotStart {
            try Test.cancel("\(error)")
        }
        let compositor = try #require(rig.compositor)
        let app = try rig.pickingApp(reason: Self.reason)
        _ = try rig.drive(PickerRig.window(reason: Self.reason), ["press:Continue", "press:\(rig.momentButton)",
                                                                  "control:\(PickerRig.checkBox(rig.album[0]))"])
        let window = try compositor.window(titled: PickerRig.pickerTitle)
        let shot = try compositor.screenshot(of: window, to: try Screenshot.folder() + "/picker-\(kind)-wayland-2x.png")
        // 960×640 points shown with 2×2 pixels each. A window drawn at 1× and enlarged by the
        // compositor, blurred, would look as large: that its buffers are 2× is the picker's word.
        #expect(shot.width == 1920 && shot.height == 1280, "\(shot.width)×\(shot.height)")
        #expect(rig.broker.process.standardError.contains(".set_buffer_scale(2)"), "the picker draws at 2×")
        #expect(shot.colourCount > 50, "\(shot.path) drew something")
        _ = try rig.drive(PickerRig.window(reason: Self.reason), ["press:Cancel", "gone"])
        #expect(try PickerRig.response(of: app).code == 1)
    }
}
