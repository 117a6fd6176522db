/// Finds an icon file by name per the freedesktop Icon Theme spec, with MediaBroker's choice of
/// size: icons are shown by journaling apps at any size, so the best file is the most scalable one.
///
/// Order of lookup:
/// 1. An absolute `Icon=` path is used as it is — if it is a regular file ending in `.png` or
///    `.svg` (the contract promises PNG or SVG); otherwise there is no icon.
/// 2. Otherwise the name (a trailing `.png`, `.svg` or `.xpm` is dropped, as GTK and pyxdg do; a name
///    with `/` is invalid) is looked up in the user's theme (`gtk-icon-theme-name` from the first
///    GTK `settings.ini` that names one; default `hicolor`), then its `Inherits` depth-first
///    (each theme once, so cycles end), then `hicolor`. The first theme holding the icon in any of
///    its directories, under any icon root, decides.
/// 3. Then unthemed icons: `<root>/<name>.svg`, `.png` in each icon root, then in each pixmaps
///    directory.
///
/// Choice within a theme, among `<root>/<theme>/<dir>/<name>.{svg,png}` for every listed directory:
/// - an SVG, one in a `Scalable` directory before one elsewhere;
/// - else the PNG with the largest pixel size (`Size` × `Scale`) of at least 128;
/// - else the PNG nearest to 128 by the spec's `DirectorySizeDistance`.
/// Ties go to the spec's order: directories as listed (`Directories`, then `ScaledDirectories`), and
/// for each directory the icon roots in order. XPM files are never returned: the contract promises
/// PNG or SVG, and current gdk-pixbuf builds no longer load XPM by default.
struct IconFinder: Sendable {
    static let preferredPixels = 128
    static let fallbackTheme = "hicolor"
    static let settingsGroup = "Settings"
    static let settingsKey = "gtk-icon-theme-name"
    /// Bounds on the theme graph, so a theme inheriting from itself or a huge chain ends.
    static let maximumThemes = 32

    /// A theme directory that exists under one root.
    private struct Place: Sendable {
        var directory: IconThemeIndex.Directory
        var absolutePath: String
    }

    /// The theme the user chose (or `hicolor`), as read.
    let themeName: String
    /// The themes searched, in order.
    let chain: [String]
    private let places: [[Place]]
    private let unthemedDirectories: [String]
    /// The settings files, icon roots, theme directories and pixmaps directories this lookup depends
    /// on, with their stamps taken before they were read.
    private(set) var watched: [(path: String, stamp: AppFiles.Stamp?)] = []

    init(paths: AppSearchPaths) {
        for file in paths.gtkSettingsFiles { watched.append((file, AppFiles.stamp(file))) }
        for root in paths.iconRoots + paths.pixmapDirectories { watched.append((root, AppFiles.stamp(root))) }
        themeName = Self.userTheme(paths.gtkSettingsFiles) ?? Self.fallbackTheme

        var themes: [IconThemeIndex] = []
        var visited: Set<String> = []
        func visit(_ name: String, into themes: inout [IconThemeIndex], watched: inout [(path: String, stamp: AppFiles.Stamp?)]) {
            guard Self.isValidThemeName(name), themes.count < Self.maximumThemes, visited.insert(name).inserted else { return }
            for root in paths.iconRoots { watched.append((root + "/" + name, AppFiles.stamp(root + "/" + name))) }
            // The first root with an `index.theme` for this theme defines it (a plain loop: a lazy
            // `compactMap(…).first` would read and parse it twice).
            var found: IconThemeIndex?
            for root in paths.iconRoots where found == nil {
                found = AppFiles.read(root + "/" + name + "/index.theme").flatMap { IconThemeIndex(name: name, parsing: $0) }
            }
            guard let theme = found else { return }
            themes.append(theme)
            for parent in theme.inherits { visit(parent, into: &themes, watched: &watched) }
        }
        visit(themeName, into: &themes, watched: &watched)
        visit(Self.fallbackTheme, into: &themes, watched: &watched)

        chain = themes.map(\.name)
        places = themes.map { theme in
            let roots = paths.iconRoots.map { $0 + "/" + theme.name }.filter(AppFiles.isDirectory)
            return theme.directories.flatMap { directory in
                roots.map { Place(directory: directory, absolutePath: $0 + "/" + directory.path) }
                    .filter { AppFiles.isDirectory($0.absolutePath) }
            }
        }
        unthemedDirectories = paths.iconRoots + paths.pixmapDirectories
    }

    /// The icon theme named by the first GTK `settings.ini` that names a valid one.
    private static func userTheme(_ files: [String]) -> String? {
        for file in files {
            guard let bytes = AppFiles.read(file) else { continue }
            let settings = KeyFile(parsing: bytes, keeping: { $0 == settingsGroup })
            guard var name = settings.value(settingsKey, in: settingsGroup).map(KeyFile.unescaped) else { continue }
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
            if isValidThemeName(name) { return name }
        }
        return nil
    }

    private static func isValidThemeName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/")
    }

    /// The icon file for a desktop file's `Icon=` value: an absolute path to a PNG or SVG file that
    /// exists, or nil.
    func path(forIcon icon: String) -> String? {
        if icon.hasPrefix("/") {
            return Self.hasUsableExtension(icon) && AppFiles.isRegularFile(icon) ? icon : nil
        }
        guard let name = Self.iconName(icon) else { return nil }
        for themePlaces in places {
            if let found = Self.best(name, in: themePlaces) { return found }
        }
        for directory in unthemedDirectories {
            for candidate in [directory + "/" + name + ".svg", directory + "/" + name + ".png"]
            where AppFiles.isRegularFile(candidate) {
                return candidate
            }
        }
        return nil
    }

    /// `mpv` → `mpv`; `mpv.png` → `mpv`; nil for an empty name or one with `/`.
    static func iconName(_ icon: String) -> String? {
        var name = icon
        for suffix in [".png", ".svg", ".xpm"] where name.lowercased().hasSuffix(suffix) && name.count > suffix.count {
            name.removeLast(suffix.count)
            break
        }
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        return name
    }

    private static func hasUsableExtension(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".png") || lowered.hasSuffix(".svg")
    }

    private struct Candidate {
        var path: String
        var directory: IconThemeIndex.Directory
        var isSVG: Bool
        var order: Int
    }

    /// The preferred file for `name` among one theme's places (see the type's documentation).
    private static func best(_ name: String, in places: [Place]) -> String? {
        var candidates: [Candidate] = []
        for (order, place) in places.enumerated() {
            for (suffix, isSVG) in [(".svg", true), (".png", false)] {
                let path = place.absolutePath + "/" + name + suffix
                if AppFiles.isRegularFile(path) {
                    candidates.append(Candidate(path: path, directory: place.directory, isSVG: isSVG, order: order))
                }
            }
        }
        let svgs = candidates.filter(\.isSVG)
        if let svg = svgs.min(by: { ($0.directory.type == .scalable ? 0 : 1, $0.order) < ($1.directory.type == .scalable ? 0 : 1, $1.order) }) {
            return svg.path
        }
        let large = candidates.filter { $0.directory.pixelSize >= preferredPixels }
        if let largest = large.min(by: { (-$0.directory.pixelSize, $0.order) < (-$1.directory.pixelSize, $1.order) }) {
            return largest.path
        }
        return candidates.min {
            ($0.directory.distance(toPixels: preferredPixels), $0.order) < ($1.directory.distance(toPixels: preferredPixels), $1.order)
        }?.path
    }
}
