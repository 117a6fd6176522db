import Foundation
import Testing
import TestSupport
@testable import MediaBroker
@testable import BrokerCore

/// The resolver on this machine's real desktop files and icon themes (Debian; `mpv` and
/// `python3-xdg` are test dependencies).
@Suite("App identity on the real installation")
struct AppRealInstallTests {
    /// This process's environment with an empty GTK configuration, so the icon theme is `hicolor` —
    /// the theme pyxdg uses unless told otherwise — whatever the person running the tests chose.
    private static func environment(_ config: TemporaryDirectory) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": config.path, "XDG_CONFIG_DIRS": config.path]) { $1 }
    }

    @Test func mpvIsMpvWithItsNameAndItsOwnIcon() throws {
        let desktopFile = "/usr/share/applications/mpv.desktop"
        let text = try #require(try? String(contentsOfFile: desktopFile, encoding: .utf8), "mpv is a test dependency: \(desktopFile)")
        let group = text.components(separatedBy: "\n[").first ?? text
        let name = try #require(group.split(separator: "\n").first { $0.hasPrefix("Name=") }?.dropFirst("Name=".count))
        let iconName = try #require(group.split(separator: "\n").first { $0.hasPrefix("Icon=") }?.dropFirst("Icon=".count))

        let config = try TemporaryDirectory(prefix: "AppRealInstall")
        var environment = Self.environment(config)
        environment["LC_ALL"] = "C"
        let resolver = AppResolver(environment: environment)
        let found = resolver.resolve(PlayerClues(
            busName: "org.mpris.MediaPlayer2.mpv", desktopEntry: "mpv", identity: "mpv Media Player", process: ConnectedProcess(processID: UInt32(getpid()), startedBy: BootClock.now())))
        #expect(found.appID == "mpv" && found.source == .desktopEntry)
        #expect(found.appName == String(name))
        let icon = try #require(found.appIcon)
        #expect(FileManager.default.fileExists(atPath: icon))
        let file = (icon as NSString).lastPathComponent
        #expect(file == "\(iconName).svg" || file == "\(iconName).png", "mpv's own icon, not another: \(icon)")
        let svg = "/usr/share/icons/hicolor/scalable/apps/mpv.svg"
        if FileManager.default.fileExists(atPath: svg) { #expect(icon == svg) }
    }

    /// Why the resolver's icon may differ from pyxdg's `getIconPath(icon, 128)`: each case is a rule
    /// of `IconFinder` that pyxdg does not share.
    enum DifferenceReason: String {
        case noXPM = "XPM is never returned (the contract promises PNG or SVG; gdk-pixbuf no longer loads XPM by default)"
        case absoluteMustExist = "an absolute Icon= is used only if the file exists (pyxdg returns it unchecked)"
        case preferSVG = "a scalable SVG is preferred to a PNG of the exact size (pyxdg takes the first directory matching 128)"
        case largerPNG = "the largest PNG of at least 128 px is preferred (pyxdg stops at the first directory matching 128)"
        case nearerPNG = "with no PNG of 128 px or more, the nearest by DirectorySizeDistance with Threshold bounds (pyxdg uses MinSize/MaxSize there and keeps dictionary order)"
    }

    @Test func iconsAgreeWithPyxdgOrDifferByADocumentedRule() throws {
        let config = try TemporaryDirectory(prefix: "AppRealInstall")
        let environment = Self.environment(config)
        let script = """
            import os, sys
            from xdg.DesktopEntry import DesktopEntry
            from xdg.IconTheme import getIconPath
            for top, dirs, files in os.walk('/usr/share/applications'):
                for f in sorted(files):
                    if not f.endswith('.desktop'): continue
                    path = os.path.join(top, f)
                    icon = DesktopEntry(path).getIcon()
                    if icon: print(path + '\\t' + icon + '\\t' + (getIconPath(icon, 128) or ''))
            """
        let python = try ChildProcess.run("/usr/bin/python3", arguments: ["-c", script], environment: environment)
        try #require(python.status.isSuccess, "python3-xdg is a test dependency: \(python.standardError)")
        let rows = python.standardOutput.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(!rows.isEmpty)

        let resolver = AppResolver(environment: environment)
        #expect(resolver.iconThemeChain == ["hicolor"])
        var agreed = 0
        var explained: [String] = []
        for row in rows {
            try #require(row.count == 3, "\(row)")
            let (file, icon, theirs) = (row[0], row[1], row[2].isEmpty ? nil : row[2])
            let ours = resolver.iconPath(forIcon: icon)
            if ours == theirs { agreed += 1; continue }
            if let reason = reason(ours: ours, theirs: theirs, icon: icon, resolver: resolver) {
                explained.append("\(file): Icon=\(icon) ours=\(ours ?? "none") pyxdg=\(theirs ?? "none") — \(reason.rawValue)")
            } else {
                Issue.record("unexplained difference for \(file): Icon=\(icon) ours=\(ours ?? "none") pyxdg=\(theirs ?? "none")")
            }
        }
        print("icons compared with pyxdg: \(rows.count), identical: \(agreed), differing by rule: \(explained.count)")
        for line in explained { print("  " + line) }
    }

    /// The rule explaining a difference, or nil when none does.
    private func reason(ours: String?, theirs: String?, icon: String, resolver: AppResolver) -> DifferenceReason? {
        let fileManager = FileManager.default
        if let theirs, theirs.lowercased().hasSuffix(".xpm"), ours.map(isPNGOrSVG) ?? true { return .noXPM }
        if icon.hasPrefix("/"), theirs == icon, ours == nil, !fileManager.fileExists(atPath: icon) { return .absoluteMustExist }
        guard let ours, let theirs, let oursDirectory = directory(of: ours), let theirsDirectory = directory(of: theirs),
              oursDirectory.theme == theirsDirectory.theme else { return nil }
        if ours.hasSuffix(".svg"), theirs.hasSuffix(".png") { return .preferSVG }
        guard ours.hasSuffix(".png"), theirs.hasSuffix(".png") else { return nil }
        let target = IconFinder.preferredPixels
        if oursDirectory.entry.pixelSize >= target, oursDirectory.entry.pixelSize > theirsDirectory.entry.pixelSize { return .largerPNG }
        if oursDirectory.entry.pixelSize < target, theirsDirectory.entry.pixelSize < target,
           oursDirectory.entry.distance(toPixels: target) <= theirsDirectory.entry.distance(toPixels: target) {
            return .nearerPNG
        }
        return nil
    }

    private func isPNGOrSVG(_ path: String) -> Bool { path.hasSuffix(".png") || path.hasSuffix(".svg") }

    /// The theme and `index.theme` directory entry an icon file lies in, for icons under a theme of
    /// a standard icon root.
    private func directory(of path: String) -> (theme: String, entry: IconThemeIndex.Directory)? {
        for root in AppSearchPaths(environment: ProcessInfo.processInfo.environment).iconRoots where path.hasPrefix(root + "/") {
            let relative = path.dropFirst(root.count + 1).split(separator: "/").map(String.init)
            guard relative.count >= 3 else { continue }
            let theme = relative[0], subdirectory = relative[1..<(relative.count - 1)].joined(separator: "/")
            guard let data = FileManager.default.contents(atPath: root + "/" + theme + "/index.theme"),
                  let index = IconThemeIndex(name: theme, parsing: Array(data)),
                  let entry = index.directories.first(where: { $0.path == subdirectory }) else { continue }
            return (theme, entry)
        }
        return nil
    }
}
