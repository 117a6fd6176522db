import Foundation
import Testing
import TestSupport
@testable import MediaBroker

/// A throw-away session for app-resolution tests: its own HOME, XDG directories, Flatpak and snap
/// directories, pixmaps and `/proc`, all under one temporary directory.
final class AppFixture: Sendable {
    let directory: TemporaryDirectory
    let root: String

    init() throws {
        directory = try TemporaryDirectory(prefix: "AppFixture")
        root = directory.path
    }

    var home: String { root + "/home" }
    var dataHome: String { root + "/home/.local/share" }
    var configHome: String { root + "/home/.config" }
    var usrShare: String { root + "/usr/share" }
    var usrLocalShare: String { root + "/usr/local/share" }
    var flatpakUser: String { home + "/.local/share/flatpak/exports/share" }
    var flatpakSystem: String { root + "/var/lib/flatpak/exports/share" }
    var snap: String { root + "/var/lib/snapd/desktop" }
    var pixmaps: String { usrShare + "/pixmaps" }
    var proc: String { root + "/proc" }

    var environment: [String: String] {
        [
            "HOME": home, "XDG_DATA_HOME": dataHome, "XDG_DATA_DIRS": usrLocalShare + ":" + usrShare,
            "XDG_CONFIG_HOME": configHome, "XDG_CONFIG_DIRS": root + "/etc/xdg",
        ]
    }

    var system: AppSearchPaths.SystemDirectories {
        .init(flatpakSystemExports: flatpakSystem, snapDesktop: snap, pixmaps: [pixmaps])
    }

    func paths(_ extra: [String: String] = [:]) -> AppSearchPaths {
        AppSearchPaths(environment: environment.merging(extra) { $1 }, system: system)
    }

    func resolver(locale: String? = nil, _ extra: [String: String] = [:]) -> AppResolver {
        AppResolver(paths: paths(extra), locale: locale.flatMap(DesktopLocale.init), procRoot: proc)
    }

    /// Writes `text` to `path` (absolute), creating the directories above it. A file of a fake
    /// process (under ``proc``) gives it a `stat` too, as the kernel does (``FakeProcess``).
    func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        if path.hasPrefix(proc + "/"), let pid = FakeProcess.processID(ofEntry: path.dropFirst(proc.count + 1)) {
            let stat = proc + "/" + String(pid) + "/stat"
            if !FileManager.default.fileExists(atPath: stat) { try Data(FakeProcess.stat(pid: pid).utf8).write(to: URL(fileURLWithPath: stat)) }
        }
    }

    /// A fake process `pid` whose executable (`/proc/PID/exe`) is `target`.
    func process(_ pid: UInt32, executable target: String) throws {
        try write(proc + "/\(pid)/stat", FakeProcess.stat(pid: pid))
        try FileManager.default.createSymbolicLink(atPath: proc + "/\(pid)/exe", withDestinationPath: target)
    }

    /// Writes a desktop file `<dataDir>/applications/<relative>` from `lines` under `[Desktop Entry]`.
    func desktopFile(in dataDir: String, _ relative: String, _ lines: String...) throws {
        try write(dataDir + "/applications/" + relative, "[Desktop Entry]\nType=Application\n" + lines.joined(separator: "\n") + "\n")
    }

    /// A fake icon file (the bytes do not matter for choosing a path).
    @discardableResult
    func icon(_ path: String) throws -> String {
        try write(path, "icon")
        return path
    }

    /// Writes `index.theme` of `theme` under `iconRoot`: `directories` as `(path, keys)`.
    func theme(
        _ theme: String, in iconRoot: String, inherits: String? = nil, directories: [(String, String)],
        scaled: [(String, String)] = []
    ) throws {
        var text = "[Icon Theme]\nName=\(theme)\n"
        if let inherits { text += "Inherits=\(inherits)\n" }
        text += "Directories=" + directories.map(\.0).joined(separator: ",") + "\n"
        if !scaled.isEmpty { text += "ScaledDirectories=" + scaled.map(\.0).joined(separator: ",") + "\n" }
        for (path, keys) in directories + scaled { text += "\n[\(path)]\n\(keys)\n" }
        try write(iconRoot + "/" + theme + "/index.theme", text)
    }

    /// A minimal hicolor with the usual kinds of directory.
    func hicolor(in iconRoot: String) throws {
        try theme("hicolor", in: iconRoot, directories: [
            ("16x16/apps", "Size=16\nType=Threshold"), ("48x48/apps", "Size=48\nType=Threshold"),
            ("128x128/apps", "Size=128\nType=Threshold"), ("256x256/apps", "Size=256\nType=Threshold"),
            ("scalable/apps", "Size=16\nMinSize=8\nMaxSize=512\nType=Scalable"),
        ])
    }

    func setIconTheme(_ name: String, gtk: String = "gtk-3.0") throws {
        try write(configHome + "/" + gtk + "/settings.ini", "[Settings]\ngtk-icon-theme-name=\(name)\n")
    }
}

@Suite("App search paths from the environment")
struct AppSearchPathsTests {
    @Test func xdgVariablesComeFirstThenFlatpakThenSnap() throws {
        let fixture = try AppFixture()
        let paths = fixture.paths()
        #expect(paths.applicationDirectories == [
            fixture.dataHome + "/applications", fixture.usrLocalShare + "/applications", fixture.usrShare + "/applications",
            fixture.flatpakUser + "/applications", fixture.flatpakSystem + "/applications", fixture.snap + "/applications",
        ])
        #expect(paths.iconRoots == [
            fixture.home + "/.icons", fixture.dataHome + "/icons", fixture.usrLocalShare + "/icons", fixture.usrShare + "/icons",
            fixture.flatpakUser + "/icons", fixture.flatpakSystem + "/icons",
        ])
        #expect(paths.pixmapDirectories == [fixture.pixmaps])
        #expect(paths.gtkSettingsFiles == [
            fixture.configHome + "/gtk-3.0/settings.ini", fixture.configHome + "/gtk-4.0/settings.ini",
            fixture.root + "/etc/xdg/gtk-3.0/settings.ini", fixture.root + "/etc/xdg/gtk-4.0/settings.ini",
        ])
    }

    @Test func unsetVariablesTakeTheSpecDefaults() {
        let paths = AppSearchPaths(environment: ["HOME": "/home/u"])
        #expect(paths.applicationDirectories == [
            "/home/u/.local/share/applications", "/usr/local/share/applications", "/usr/share/applications",
            "/home/u/.local/share/flatpak/exports/share/applications", "/var/lib/flatpak/exports/share/applications",
            "/var/lib/snapd/desktop/applications",
        ])
        #expect(paths.gtkSettingsFiles.first == "/home/u/.config/gtk-3.0/settings.ini")
        #expect(paths.pixmapDirectories == ["/usr/share/pixmaps"])
    }

    @Test func relativePathsAreIgnoredAndNoHomeMeansNoPerUserDirectories() {
        let paths = AppSearchPaths(environment: ["XDG_DATA_HOME": "relative", "XDG_DATA_DIRS": "also/relative:/opt/share/"])
        #expect(paths.applicationDirectories == [
            "/opt/share/applications", "/var/lib/flatpak/exports/share/applications", "/var/lib/snapd/desktop/applications",
        ])
        #expect(!paths.iconRoots.contains { $0.contains(".icons") })
    }
}
