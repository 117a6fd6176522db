import Locking
import AssetContract
internal import Glibc
import BrokerCore

/// Turns what a player says about itself into the app identity stored with its listens: a
/// normalised `app_id`, the app's human name and an icon file (mpris-quirks.md 13 and 17).
///
/// ## Rules, in order
/// 1. **Sandbox.** With a process id, a Flatpak sandbox (`/proc/PID/root/.flatpak-info`
///    `[Application] name=`, else a `app-flatpak-<id>-<n>.scope` cgroup) gives its Flatpak app id;
///    a snap (`snap.<name>.<app>…` cgroup) gives the desktop-file id `<name>_<app>` when that file is
///    installed (snapd puts it in `/var/lib/snapd/desktop/applications`), else the snap's name.
/// 2. **`DesktopEntry`**, when a desktop file with exactly that id is installed (a trailing
///    `.desktop` is dropped first; an empty value counts as absent).
/// 3. **A match among installed desktop files** for the player's own words, `DesktopEntry` and the
///    bus-name stem, trying for both clues one kind of match before the next: the id ignoring case;
///    the last component of a reverse-DNS id (`org.videolan.VLC` for `vlc`); the component before
///    the last when only one id has it (`com.spotify.Client` for `spotify`); `StartupWMClass`
///    ignoring case; then `Name` (untranslated or localized) ignoring case, against `Identity` first
///    and then the two clues. Several matches of one kind: the one shown in menus, then the
///    earliest by desktop-file precedence. A desktop file whose id breaks the app-id rule
///    (``AssetContract/isAppID(_:)``: a space in its file name, say) matches nothing.
/// 4. **The executable's file name** (`/proc/PID/exe`: `firefox-esr` for a Firefox that has not
///    told its `DesktopEntry` yet), by the same kinds of match, only when rule 3 found nothing, and
///    never when it is an interpreter or runtime (``Interpreter``): a Python player is not Python.
/// 5. **The bus-name stem** without instance suffix: `org.mpris.MediaPlayer2.vlc.instance7389`,
///    `firefox.instance_1_66`, `chromium.instance6013` → `vlc`, `firefox`, `chromium`.
///
/// `appName` is the matched desktop file's `Name` in the user's locale, else `Identity`.
/// `appIcon` is the desktop file's `Icon=` found by `IconFinder`; with no desktop file, or one
/// without `Icon=`, the app id itself is tried as an icon name. Nothing found: nil.
///
/// ## Cache
/// Results are kept per app (the clues without the process id, plus the sandbox found) and per app
/// id. Every lookup first compares the stamps (`stat`) of the directories the results came from:
/// each `applications` directory and its subdirectories, the GTK settings files, the icon roots, the
/// theme directories of the themes searched and the pixmaps directories. Any change drops all
/// results. No timer and no watcher thread: an idle daemon does nothing. A file edited in place
/// (same directory entry) is not noticed until something else changes; package managers and
/// `gtk-update-icon-cache` replace files and so move the stamps.
// @unchecked Sendable: every stored property except the immutable `paths`, `locale`, `procRoot`
// and `worker` is read and written only with `mutex` held.
final class AppResolver: @unchecked Sendable {
    /// Bounds on what a player can make the cache hold.
    static let maximumCachedApps = 512
    static let maximumClueBytes = 255
    static let maximumNameBytes = 256

    let paths: AppSearchPaths
    let locale: DesktopLocale?
    let procRoot: String
    private let worker = WorkerThread()
    private let mutex = ThreadLock()

    private struct Snapshot {
        var desktopFiles: DesktopFileIndex
        var icons: IconFinder
        var watched: [(path: String, stamp: AppFiles.Stamp?)]
    }

    private struct CluesKey: Hashable {
        var stem: String
        var desktopEntry: String?
        var identity: String?
        var sandbox: Sandbox?
        var executable: String?
    }

    private var snapshot: Snapshot?
    private var byClues: [CluesKey: AppIdentity] = [:]
    private var byAppID: [String: AppIdentity] = [:]
    private var iconPaths: [String: String?] = [:]

    /// A resolver for the session described by `environment` (`HOME`, `XDG_DATA_HOME`,
    /// `XDG_DATA_DIRS`, `XDG_CONFIG_HOME`, `XDG_CONFIG_DIRS`, `LC_ALL`/`LC_MESSAGES`/`LANG`).
    /// Nothing is read until the first lookup.
    convenience init(environment: [String: String], procRoot: String = "/proc") {
        self.init(paths: AppSearchPaths(environment: environment), locale: DesktopLocale(environment: environment), procRoot: procRoot)
    }

    init(paths: AppSearchPaths, locale: DesktopLocale?, procRoot: String = "/proc") {
        self.paths = paths
        self.locale = locale
        self.procRoot = procRoot
    }

    deinit {
        worker.shutdown()
    }

    // MARK: Lookups

    /// The app behind a player. Blocks on disk I/O when nothing is cached or something changed:
    /// call it from a thread that may block, or use `resolve(_:completion:)`.
    func resolve(_ clues: PlayerClues) -> AppIdentity {
        // Read together, and only from the connection's own process (``ConnectedProcess``).
        let seen = clues.process.flatMap { process in
            process.reading(procRoot: procRoot) {
                (Sandbox.of(processID: process.processID, procRoot: procRoot),
                 Self.executableName(processID: process.processID, procRoot: procRoot))
            }
        }
        let sandbox = seen?.0, executable = seen?.1
        let desktopEntry = Self.desktopID(clues.desktopEntry)
        let identity = clues.identity.flatMap { BoundedText.clean($0, maxBytes: Self.maximumNameBytes) }
        let stem = PlayerClues.stem(ofBusName: clues.busName)
        let key = CluesKey(stem: stem, desktopEntry: desktopEntry, identity: identity, sandbox: sandbox, executable: executable)
        return withFreshSnapshot { snapshot in
            if let known = byClues[key] { return known }
            let found = resolve(key, in: snapshot)
            if byClues.count >= Self.maximumCachedApps { byClues.removeAll() }
            byClues[key] = found
            return found
        }
    }

    /// `resolve(clues)` on the resolver's own thread; `completion` is called on that thread (or, in
    /// the unlikely case that no thread can be created, at once on the caller's).
    func resolve(_ clues: PlayerClues, completion: @escaping @Sendable (AppIdentity) -> Void) {
        let submitted = worker.submit { completion(self.resolve(clues)) }
        if !submitted { completion(resolve(clues)) }
    }

    /// Name and icon for an app id alone (for `Apps()`): from the installed desktop file with that
    /// id, if any; the icon otherwise by the id as an icon name. Blocks like `resolve(_:)`.
    func identity(forAppID appID: String) -> AppIdentity {
        withFreshSnapshot { snapshot in
            if let known = byAppID[appID] { return known }
            let item = snapshot.desktopFiles.item(forID: appID)
            let found = AppIdentity(
                appID: appID, appName: item.flatMap { name(of: $0) }, appIcon: icon(item?.entry.icon ?? appID, in: snapshot),
                source: .given)
            if byAppID.count >= Self.maximumCachedApps { byAppID.removeAll() }
            byAppID[appID] = found
            return found
        }
    }

    /// `identity(forAppID:)` on the resolver's own thread; `completion` is called on that thread (or,
    /// if no thread can be created, at once on the caller's).
    func identity(forAppID appID: String, completion: @escaping @Sendable (AppIdentity) -> Void) {
        let submitted = worker.submit { completion(self.identity(forAppID: appID)) }
        if !submitted { completion(identity(forAppID: appID)) }
    }

    // MARK: Who asks

    /// The names among `busNames` that are the id of an installed desktop file: the well-known names
    /// an app may own as its id (GApplication and KDE apps own theirs). Blocks like `resolve(_:)`.
    func installedAppIDs(among busNames: [String]) -> [String] {
        withFreshSnapshot { snapshot in busNames.filter { snapshot.desktopFiles.item(forID: $0) != nil } }
    }

    /// `installedAppIDs(among:)` on the resolver's own thread.
    func installedAppIDs(among busNames: [String], completion: @escaping @Sendable ([String]) -> Void) {
        let submitted = worker.submit { completion(self.installedAppIDs(among: busNames)) }
        if !submitted { completion(installedAppIDs(among: busNames)) }
    }

    /// The app a process on the host asks as, for the words the person reads: the desktop file of
    /// `ownedAppID` (a well-known name the caller owns that is an installed desktop-file id); else
    /// the desktop file its executable's name matches, or with none that name alone; nil when the
    /// executable is an interpreter (a Python app is not "Python") or cannot be read.
    func asker(ownedAppID: String?, process: ConnectedProcess?) -> AppIdentity? {
        if let ownedAppID, AssetContract.isAppID(ownedAppID) {
            let known = identity(forAppID: ownedAppID)
            if known.appName != nil { return known }
        }
        let executable = process.flatMap { process in
            process.reading(procRoot: procRoot) { Self.executableName(processID: process.processID, procRoot: procRoot) } ?? nil
        }
        guard let executable,
              !Interpreter.isInterpreter(executable) else { return nil }
        return withFreshSnapshot { snapshot in
            let item = Self.match(among: snapshot.desktopFiles, clues: [executable], names: [executable])
            return AppIdentity(appID: item?.id ?? executable, appName: item.flatMap { name(of: $0) } ?? executable,
                               appIcon: icon(item?.entry.icon ?? executable, in: snapshot), source: .desktopFileMatch)
        }
    }

    /// `asker(ownedAppID:process:)` on the resolver's own thread.
    func asker(ownedAppID: String?, process: ConnectedProcess?, completion: @escaping @Sendable (AppIdentity?) -> Void) {
        let submitted = worker.submit { completion(self.asker(ownedAppID: ownedAppID, process: process)) }
        if !submitted { completion(asker(ownedAppID: ownedAppID, process: process)) }
    }

    // MARK: Journal apps

    /// The installed journal apps — those whose desktop file declares a suggestion URL (issue 35)
    /// — by id. Blocks like `resolve(_:)`.
    func journalApps() -> [JournalApp] {
        withFreshSnapshot { snapshot in
            snapshot.desktopFiles.items.values.filter { $0.entry.suggestionURL != nil && !$0.entry.hidden }
                .sorted { $0.id < $1.id }
                .map { item in
                    JournalApp(id: item.id, name: name(of: item) ?? item.id, icon: icon(item.entry.icon ?? item.id, in: snapshot),
                               desktopFile: item.path, entry: item.entry)
                }
        }
    }

    /// `journalApps()` on the resolver's own thread.
    func journalApps(completion: @escaping @Sendable ([JournalApp]) -> Void) {
        let submitted = worker.submit { completion(self.journalApps()) }
        if !submitted { completion(journalApps()) }
    }

    /// The icon file for an `Icon=` value, by the same rules and cache as the other lookups.
    func iconPath(forIcon icon: String) -> String? {
        withFreshSnapshot { self.icon(icon, in: $0) }
    }

    /// The icon theme in use and the themes searched, in order (for diagnostics).
    var iconThemeChain: [String] {
        withFreshSnapshot { $0.icons.chain }
    }

    // MARK: Rules

    private func resolve(_ key: CluesKey, in snapshot: Snapshot) -> AppIdentity {
        let index = snapshot.desktopFiles
        switch key.sandbox {
        case .flatpak(let appID):
            return identity(appID, index.item(forID: appID), key, .flatpak, in: snapshot)
        case .snap(let name, let app):
            let desktopID = name + "_" + app
            if let item = index.item(forID: desktopID) { return identity(desktopID, item, key, .snap, in: snapshot) }
            return identity(name, nil, key, .snap, in: snapshot)
        case nil:
            break
        }
        if let desktopEntry = key.desktopEntry, let item = index.item(forID: desktopEntry), AssetContract.isAppID(item.id) {
            return identity(item.id, item, key, .desktopEntry, in: snapshot)
        }
        let ownWords = [key.desktopEntry, key.stem].compactMap { $0 }
        if let item = Self.match(among: index, clues: ownWords, names: [key.identity].compactMap { $0 } + ownWords) {
            return identity(item.id, item, key, .desktopFileMatch, in: snapshot)
        }
        if let executable = key.executable, !Interpreter.isInterpreter(executable),
           let item = Self.match(among: index, clues: [executable], names: [executable]) {
            return identity(item.id, item, key, .desktopFileMatch, in: snapshot)
        }
        return identity(key.stem, nil, key, .busName, in: snapshot)
    }

    /// The desktop file that `clues` match by the strongest kind of match, trying every clue for one
    /// kind before the next; `names` are tried last, against `Name`.
    private static func match(among index: DesktopFileIndex, clues: [String], names: [String]) -> DesktopFileIndex.Item? {
        for kind in [DesktopFileIndex.MatchKind.id, .reverseDNSName, .reverseDNSOwner, .startupWMClass] {
            for clue in clues {
                if let item = index.match(clue, by: kind), AssetContract.isAppID(item.id) { return item }
            }
        }
        for name in names {
            if let item = index.match(name, by: .name), AssetContract.isAppID(item.id) { return item }
        }
        return nil
    }

    private func identity(
        _ appID: String, _ item: DesktopFileIndex.Item?, _ key: CluesKey, _ source: AppIdentity.Source, in snapshot: Snapshot
    ) -> AppIdentity {
        AppIdentity(
            appID: appID, appName: item.flatMap { name(of: $0) } ?? key.identity,
            appIcon: icon(item?.entry.icon ?? appID, in: snapshot), source: source)
    }

    private func name(of item: DesktopFileIndex.Item) -> String? {
        item.entry.localizedName.flatMap { BoundedText.clean($0, maxBytes: Self.maximumNameBytes) }
    }

    /// Called with `mutex` held.
    private func icon(_ icon: String, in snapshot: Snapshot) -> String? {
        if let known = iconPaths[icon] { return known }
        let found = snapshot.icons.path(forIcon: icon)
        if iconPaths.count >= Self.maximumCachedApps { iconPaths.removeAll() }
        iconPaths[icon] = found
        return found
    }

    /// A `DesktopEntry` value as a desktop-file id: trimmed, without a trailing `.desktop`; nil when
    /// empty or unreasonably long.
    static func desktopID(_ value: String?) -> String? {
        guard var id = value?.trimmingSpaces(), !id.isEmpty, id.utf8.count <= maximumClueBytes else { return nil }
        if id.hasSuffix(".desktop"), id.count > ".desktop".count { id.removeLast(".desktop".count) }
        return id
    }

    /// The file name of process `pid`'s executable, read from the kernel (`/proc/PID/exe`), never
    /// from the process; nil when the process is gone, not ours, or the name is no plausible id.
    static func executableName(processID pid: UInt32, procRoot: String) -> String? {
        guard var target = AppFiles.linkTarget(procRoot + "/" + String(pid) + "/exe") else { return nil }
        // The kernel marks an executable replaced on disk (a package upgrade) this way.
        if target.hasSuffix(" (deleted)") { target.removeLast(" (deleted)".count) }
        guard let name = target.split(separator: "/").last, AssetContract.isAppID(name) else { return nil }
        return String(name)
    }

    // MARK: Snapshot

    /// Runs `body` with the mutex held and a snapshot whose stamps still match the disk, rebuilding
    /// it (and dropping every cached result) when one moved.
    private func withFreshSnapshot<T>(_ body: (Snapshot) -> T) -> T {
        mutex.lock()
        defer { mutex.unlock() }
        let current: Snapshot
        if let snapshot, snapshot.watched.allSatisfy({ AppFiles.stamp($0.path) == $0.stamp }) {
            current = snapshot
        } else {
            byClues.removeAll()
            byAppID.removeAll()
            iconPaths.removeAll()
            let desktopFiles = DesktopFileIndex(directories: paths.applicationDirectories, locale: locale)
            let icons = IconFinder(paths: paths)
            current = Snapshot(desktopFiles: desktopFiles, icons: icons, watched: desktopFiles.watched + icons.watched)
            snapshot = current
        }
        return body(current)
    }
}
