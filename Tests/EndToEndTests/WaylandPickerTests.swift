import Foundation
import TestSupport
import Testing

/// Issue 36 §1: the picker under the compositors of real Wayland desktops, started headless —
/// GNOME's (mutter alone, and with GNOME Shell) and KDE's (KWin). The broker has `WAYLAND_DISPLAY`
/// and no `DISPLAY`, as a Wayland session's activation environment has it; the window is driven
/// through AT-SPI as on X11, and where the compositor can tell, its own account says which window
/// the picker is attached to. A compositor that cannot start here skips its case, saying why.
@Suite(.serialized, .timeLimit(.minutes(3))) struct WaylandPickerTests {
    /// A picker rig on a compositor of `kind`; the test case is skipped when it cannot start.
    static func rig(on kind: WaylandCompositor.Kind) async throws -> (rig: PickerRig, compositor: WaylandCompositor) {
        let rig: PickerRig
        do {
            rig = try await PickerRig(screen: { try WaylandCompositor(kind, bus: $0) })
        } catch let error as WaylandCompositor.CannotStart {
            try Test.cancel("\(error)")
        }
        return (rig, try #require(rig.compositor))
    }

    /// The environment of the broker's one picker process.
    static func pickerEnvironment(_ rig: PickerRig) throws -> [String: String] {
        let pid = try #require(try rig.pickerProcesses().first)
        let data = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
        return Dictionary(data.split(separator: 0).map { String(decoding: $0, as: UTF8.self).split(separator: "=", maxSplits: 1).map(String.init) }
            .filter { $0.count == 2 }.map { ($0[0], $0[1]) }) { first, _ in first }
    }

    @Test("on each compositor the picker shows on Wayland alone and shares what is ticked; GNOME Shell and KWin picture it",
          arguments: WaylandCompositor.Kind.allCases)
    func sharesOnWayland(kind: WaylandCompositor.Kind) async throws {
        let (rig, compositor) = try await Self.rig(on: kind)
        let reason = "Add music on \(kind)"
        let app = try rig.pickingApp(reason: reason)
        _ = try rig.drive(PickerRig.window(reason: reason), ["press:Continue", "press:\(rig.momentButton)",
                                                             "control:\(PickerRig.checkBox(rig.album[0]))"])
        let environment = try Self.pickerEnvironment(rig)
        #expect(environment["WAYLAND_DISPLAY"] == compositor.socket && environment["DISPLAY"] == nil, "\(environment)")
        if kind != .mutter {
            let window = try compositor.window(titled: PickerRig.pickerTitle)
            let shot = try compositor.screenshot(of: window, to: try Screenshot.folder() + "/picker-\(kind)-wayland.png")
            #expect(shot.colourCount > 50, "\(shot.path) drew something")
            #expect(shot.width >= window.width && shot.height >= window.height, "\(shot.width)×\(shot.height), framed \(window)")
        }
        _ = try rig.drive(PickerRig.window(reason: reason), ["press:Share", "gone"])
        let (code, results) = try PickerRig.response(of: app)
        #expect(code == 0)
        #expect(results.assets == rig.album.map(\.id))
        #expect(results.moment == PickerRig.PickResults.Moment(id: rig.moment.id, asset_ids: rig.album.map(\.id)))
    }

    /// The title of the window the picker of the app asking with `reason` is attached to (nil:
    /// none), by the compositor's account, with every window it shows; then Cancel, which answers 1.
    static func pickersParent(_ rig: PickerRig, _ compositor: WaylandCompositor, app: ChildProcess, reason: String) throws
        -> (parent: String?, windows: [WaylandCompositor.ShownWindow]) {
        _ = try rig.drive(PickerRig.window(reason: reason), ["expect:Continue"])
        let picker = try compositor.window(titled: PickerRig.pickerTitle)
        let windows = try compositor.windows()
        _ = try rig.drive(PickerRig.window(reason: reason), ["press:Cancel", "gone"])
        #expect(try PickerRig.response(of: app).code == 1)
        return (picker.parent, windows)
    }

    /// How the app exports its window: GTK 4.8's own call speaks xdg-foreign v1 (GNOME Shell
    /// offers it); KWin 5.27 offers only v2, which a KDE app (Qt) exports with, as
    /// `foreign-v2-window.c` does.
    enum Export: CustomStringConvertible, Sendable {
        case gtkV1, v2
        var description: String { self == .gtkV1 ? "GTK's xdg-foreign v1" : "xdg-foreign v2" }
    }

    /// `Tests/Fixtures/foreign-v2-window.c` built into `folder` with the protocol code the picker
    /// uses (Sources/CWaylandForeign), then started on the compositor: a window titled "Journal
    /// Window" exported with v2; returns it and its `wayland:HANDLE`.
    static func v2ExportedWindow(_ rig: PickerRig, in folder: TemporaryDirectory) throws -> (window: ChildProcess, parent: String) {
        let program = folder.path + "/foreign-v2-window"
        let flags = try ChildProcess.run("pkg-config", arguments: ["--cflags", "--libs", "gtk4", "wayland-client"])
        try #require(flags.status == .exited(0), "pkg-config gtk4 wayland-client: \(flags.standardError)")
        let build = try ChildProcess.run(
            "cc", arguments: ["-o", program, FlatpakSandbox.fixture("foreign-v2-window.c"),
                              SourceTree.path("Sources/CWaylandForeign/xdg-foreign-unstable-v2-protocol.c"),
                              "-I", SourceTree.path("Sources/CWaylandForeign")]
                + flags.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init),
            timeout: .seconds(120))
        try #require(build.status == .exited(0), "cc foreign-v2-window.c \(build.status)\n\(build.standardError)")
        let window = try ChildProcess.launch(program, arguments: [], environment: rig.bus.environment.merging(rig.screen.environment) { $1 })
        try window.waitForOutput(containing: "exported wayland:", in: .standardOutput, timeout: .seconds(20))
        let line = try #require(window.standardOutput.split(separator: "\n").first { $0.hasPrefix("exported wayland:") })
        return (window, String(line.dropFirst("exported ".count)))
    }

    @Test("over the app's window exported with xdg-foreign (wayland:HANDLE) the picker is transient for it, by the compositor's account: on GNOME Shell GTK imports a v1 export; on KWin 5.27, which offers only v2 (GTK 4.8 speaks v1), the picker imports a v2 export itself",
          arguments: [(WaylandCompositor.Kind.gnomeShell, Export.gtkV1), (.kwin, .v2)])
    func overTheAppsWindow(kind: WaylandCompositor.Kind, export: Export) async throws {
        let (rig, compositor) = try await Self.rig(on: kind)
        let app: ChildProcess
        var exporter: ChildProcess?
        let folder = try TemporaryDirectory(prefix: "foreign-v2")
        switch export {
        case .gtkV1:
            app = try rig.pickingApp(reason: "Over my window", overItsWindow: true)
            #expect(app.standardOutput.contains("exported wayland:"), "\(app.standardOutput)")
        case .v2:
            let (window, parent) = try Self.v2ExportedWindow(rig, in: folder)
            exporter = window
            app = try rig.pickingApp(reason: "Over my window", parentWindow: parent)
        }
        let (parent, windows) = try Self.pickersParent(rig, compositor, app: app, reason: "Over my window")
        #expect(parent == "Journal Window" && windows.contains { $0.title == "Journal Window" }, "\(export): \(windows)")
        exporter?.signal(SIGTERM)
    }

    @Test("an unknown or stale wayland: handle still shows the picker, attached to nothing, by the compositor's account",
          arguments: [WaylandCompositor.Kind.gnomeShell, .kwin])
    func staleHandleShowsUnparented(kind: WaylandCompositor.Kind) async throws {
        let (rig, compositor) = try await Self.rig(on: kind)
        let app = try rig.pickingApp(reason: "Stale handle", parentWindow: "wayland:nonsense")
        let (parent, windows) = try Self.pickersParent(rig, compositor, app: app, reason: "Stale handle")
        #expect(parent == nil, "\(windows)")
    }
}
