/// The installed applications: every desktop file under the `applications` directories, by
/// desktop-file id, as the Desktop Entry spec defines ids and precedence.
///
/// - The id of `<dir>/kde4/foo.desktop` is `kde4-foo` (the path below the `applications` directory,
///   `/` replaced by `-`, without `.desktop`).
/// - For the same id, the earliest directory wins. A file with `Hidden=true` wins too, and hides the
///   id altogether (that is how a user deletes a system entry).
/// - A file that cannot be read, is larger than `AppFiles.readLimit`, has no `[Desktop Entry]` group
///   or is not an application (`Type=Link`, `Directory`) is passed over and hides nothing.
/// - Names starting with `.` are skipped; directories are followed at most `maximumDepth` deep, so a
///   symbolic-link loop ends.
struct DesktopFileIndex {
    static let maximumDepth = 8
    static let maximumFiles = 10_000

    struct Item: Equatable, Sendable {
        var id: String
        var path: String
        var entry: DesktopEntry
        /// Position in precedence order: directory first, then path within it.
        var rank: Int
    }

    private(set) var items: [String: Item] = [:]
    /// Every directory listed (and every root, present or not), with its stamp taken before listing.
    private(set) var watched: [(path: String, stamp: AppFiles.Stamp?)] = []

    private var byLowercasedID: [String: [Item]] = [:]
    private var byLastComponent: [String: [Item]] = [:]
    private var byOwnerComponent: [String: [Item]] = [:]
    private var byWMClass: [String: [Item]] = [:]
    private var byName: [String: [Item]] = [:]

    init(directories: [String], locale: DesktopLocale?) {
        var hidden: Set<String> = []
        var files = 0
        for root in directories {
            var found: [(id: String, path: String)] = []
            walk(root, prefix: "", depth: 0, into: &found, files: &files)
            for (id, path) in found.sorted(by: { $0.id < $1.id }) where items[id] == nil && !hidden.contains(id) {
                guard let bytes = AppFiles.read(path), let entry = DesktopEntry(parsing: bytes, locale: locale),
                      entry.isApplication else { continue }
                if entry.hidden { hidden.insert(id); continue }
                items[id] = Item(id: id, path: path, entry: entry, rank: items.count)
            }
        }
        for item in items.values { index(item) }
    }

    private mutating func walk(
        _ directory: String, prefix: String, depth: Int, into found: inout [(id: String, path: String)], files: inout Int
    ) {
        watched.append((directory, AppFiles.stamp(directory)))
        for entry in AppFiles.entries(of: directory) {
            let path = directory + "/" + entry.name
            if entry.isDirectory {
                if depth < Self.maximumDepth {
                    walk(path, prefix: prefix + entry.name + "-", depth: depth + 1, into: &found, files: &files)
                }
            } else if entry.name.hasSuffix(".desktop"), entry.name.count > ".desktop".count, files < Self.maximumFiles {
                files += 1
                found.append((prefix + String(entry.name.dropLast(".desktop".count)), path))
            }
        }
    }

    private mutating func index(_ item: Item) {
        let id = item.id.lowercased()
        byLowercasedID[id, default: []].append(item)
        let components = id.split(separator: ".", omittingEmptySubsequences: false)
        if components.count >= 2, let last = components.last, !last.isEmpty {
            byLastComponent[String(last), default: []].append(item)
        }
        if components.count >= 3, !components[components.count - 2].isEmpty {
            byOwnerComponent[String(components[components.count - 2]), default: []].append(item)
        }
        if let wmClass = item.entry.startupWMClass?.lowercased() { byWMClass[wmClass, default: []].append(item) }
        for name in Set([item.entry.name, item.entry.localizedName].compactMap { $0?.lowercased() }) {
            byName[name, default: []].append(item)
        }
    }

    /// The entry with exactly this desktop-file id.
    func item(forID id: String) -> Item? { items[id] }

    /// How an entry was matched, in the order the resolver tries them.
    enum MatchKind: CaseIterable, Sendable {
        /// The id, ignoring case (`VLC` → `vlc.desktop`).
        case id
        /// The last component of a reverse-DNS id (`vlc` → `org.videolan.VLC.desktop`).
        case reverseDNSName
        /// The component before the last of a reverse-DNS id with at least three components
        /// (`spotify` → `com.spotify.Client.desktop`) — only when exactly one id matches, since this
        /// component is often an organisation (`org.kde.*`) shared by many apps.
        case reverseDNSOwner
        /// `StartupWMClass`, ignoring case.
        case startupWMClass
        /// `Name` (untranslated or localized), ignoring case.
        case name
    }

    /// The best entry matching `token` by `kind`: among several, one shown in menus
    /// (`NoDisplay` unset) before a hidden one, then the one earliest in precedence order.
    func match(_ token: String, by kind: MatchKind) -> Item? {
        let key = token.lowercased()
        let candidates: [Item]?
        switch kind {
        case .id: candidates = byLowercasedID[key]
        case .reverseDNSName: candidates = byLastComponent[key]
        case .reverseDNSOwner: candidates = byOwnerComponent[key].flatMap { $0.count == 1 ? $0 : nil }
        case .startupWMClass: candidates = byWMClass[key]
        case .name: candidates = byName[key]
        }
        return candidates?.min { ($0.entry.noDisplay ? 1 : 0, $0.rank) < ($1.entry.noDisplay ? 1 : 0, $1.rank) }
    }
}
