/// Where desktop files, icon themes and the user's icon-theme choice are looked for, in order.
///
/// Built from an environment (never read globally), per the XDG base-directory spec: an unset or
/// empty variable takes the spec's default; a relative path is invalid and ignored; without `HOME`
/// the per-user defaults are skipped rather than guessed.
struct AppSearchPaths: Equatable, Sendable {
    /// `applications` directories, earliest wins for the same desktop-file id.
    var applicationDirectories: [String]
    /// Icon base directories: `~/.icons`, each data dir's `icons`, the Flatpak exports' `icons`.
    var iconRoots: [String]
    /// Unthemed icons, searched last (after every root's top level).
    var pixmapDirectories: [String]
    /// GTK `settings.ini` files that may name the icon theme, first found wins.
    var gtkSettingsFiles: [String]

    /// Paths outside the XDG variables, replaceable so tests never see the machine's own.
    struct SystemDirectories: Equatable, Sendable {
        var flatpakSystemExports: String
        var snapDesktop: String
        var pixmaps: [String]

        init(flatpakSystemExports: String, snapDesktop: String, pixmaps: [String]) {
            self.flatpakSystemExports = flatpakSystemExports
            self.snapDesktop = snapDesktop
            self.pixmaps = pixmaps
        }

        static let standard = SystemDirectories(
            flatpakSystemExports: "/var/lib/flatpak/exports/share", snapDesktop: "/var/lib/snapd/desktop",
            pixmaps: ["/usr/share/pixmaps"])
    }

    init(
        applicationDirectories: [String], iconRoots: [String], pixmapDirectories: [String], gtkSettingsFiles: [String]
    ) {
        self.applicationDirectories = applicationDirectories
        self.iconRoots = iconRoots
        self.pixmapDirectories = pixmapDirectories
        self.gtkSettingsFiles = gtkSettingsFiles
    }

    /// Data directories: `$XDG_DATA_HOME` (default `~/.local/share`), each `$XDG_DATA_DIRS`
    /// (default `/usr/local/share:/usr/share`), the user's then the system's Flatpak exports, then
    /// snap's desktop directory. GTK settings: `$XDG_CONFIG_HOME` (default `~/.config`) then each
    /// `$XDG_CONFIG_DIRS` (default `/etc/xdg`), `gtk-3.0` before `gtk-4.0` in each.
    init(environment: [String: String], system: SystemDirectories = .standard) {
        let home = AppFiles.absolute(environment["HOME"])
        let dataHome = AppFiles.absolute(environment["XDG_DATA_HOME"]) ?? home.map { $0 + "/.local/share" }
        let dataDirs = Self.pathList(environment["XDG_DATA_DIRS"], default: ["/usr/local/share", "/usr/share"])
        let configHome = AppFiles.absolute(environment["XDG_CONFIG_HOME"]) ?? home.map { $0 + "/.config" }
        let configDirs = Self.pathList(environment["XDG_CONFIG_DIRS"], default: ["/etc/xdg"])

        var data: [String] = []
        if let dataHome { data.append(dataHome) }
        data += dataDirs
        if let home { data.append(home + "/.local/share/flatpak/exports/share") }
        data.append(system.flatpakSystemExports)
        data = Self.unique(data)

        applicationDirectories = Self.unique(data.map { $0 + "/applications" } + [system.snapDesktop + "/applications"])
        iconRoots = Self.unique((home.map { [$0 + "/.icons"] } ?? []) + data.map { $0 + "/icons" })
        pixmapDirectories = system.pixmaps
        gtkSettingsFiles = ((configHome.map { [$0] } ?? []) + configDirs).flatMap {
            [$0 + "/gtk-3.0/settings.ini", $0 + "/gtk-4.0/settings.ini"]
        }
    }

    /// A colon-separated list of absolute paths; the default when unset or empty (or when nothing
    /// in it is absolute).
    private static func pathList(_ value: String?, default fallback: [String]) -> [String] {
        let paths = (value ?? "").split(separator: ":").compactMap { AppFiles.absolute(String($0)) }
        return paths.isEmpty ? fallback : paths
    }

    private static func unique(_ paths: [String]) -> [String] {
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }
}
