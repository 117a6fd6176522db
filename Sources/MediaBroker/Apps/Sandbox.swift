import AssetContract
/// Which sandbox, if any, a player's process runs in — read from `/proc`, never from the player.
///
/// The process id comes from the bus daemon (`GetConnectionUnixProcessID`), so it is trustworthy;
/// the files read are the process's own `/proc/PID/root/.flatpak-info` (bind-mounted read-only by
/// Flatpak) and `/proc/PID/cgroup` (written by systemd for Flatpak and snapd). An id read there is
/// accepted only if it looks like an app id (`[A-Za-z0-9._-]`, at most 255 characters).
enum Sandbox: Hashable, Sendable {
    case flatpak(appID: String)
    /// `snap.<name>.<app>…`: the snap's name and the app inside it.
    case snap(name: String, app: String)

    /// A cgroup file or `.flatpak-info` larger than this is not believed.
    static let readLimit = 64 * 1024

    /// The sandbox of process `pid` under `procRoot` (normally `/proc`), or nil when it runs
    /// unconfined, has gone, or cannot be read.
    static func of(processID pid: UInt32, procRoot: String) -> Sandbox? {
        let process = procRoot + "/" + String(pid)
        if let bytes = AppFiles.read(process + "/root/.flatpak-info", limit: readLimit),
           let name = KeyFile(parsing: bytes, keeping: { $0 == "Application" }).value("name", in: "Application"),
           AssetContract.isAppID(name) {
            return .flatpak(appID: name)
        }
        guard let bytes = AppFiles.read(process + "/cgroup", limit: readLimit) else { return nil }
        return fromCgroup(String(decoding: bytes, as: UTF8.self))
    }

    /// The snap an AppArmor label names (`snap.spotify.spotify (enforce)`, as the bus daemon
    /// recorded it when the connection was made: `LinuxSecurityLabel`), hooks included; nil for
    /// any other label. The label is the kernel's, fixed for the connection: no pid is involved.
    static func fromSecurityLabel(_ bytes: [UInt8]) -> Sandbox? {
        let label = bytes.prefix { $0 != 0 }
        let profile = label.split(separator: UInt8(ascii: " "), maxSplits: 1).first ?? []
        let parts = profile.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard parts.count >= 3, parts[0] == "snap", AssetContract.isAppID(parts[1]), AssetContract.isAppID(parts[2]) else {
            return nil
        }
        return .snap(name: parts[1], app: parts[2])
    }

    /// The sandbox named by a `/proc/PID/cgroup` text: a `app-flatpak-<id>-<n>.scope` or a
    /// `snap.<name>.<app>…` unit in any line's path, the innermost one first.
    static func fromCgroup(_ text: String) -> Sandbox? {
        for line in text.split(separator: "\n") {
            // hierarchy-ID:controllers:path — the path may itself contain ':'.
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            for component in fields[2].split(separator: "/").reversed() {
                if let sandbox = flatpakScope(component) ?? snapUnit(component) { return sandbox }
            }
        }
        return nil
    }

    /// `app-flatpak-com.spotify.Client-12345.scope` → `com.spotify.Client`.
    private static func flatpakScope(_ component: Substring) -> Sandbox? {
        let prefix = "app-flatpak-", suffix = ".scope"
        guard component.hasPrefix(prefix), component.hasSuffix(suffix) else { return nil }
        var id = component.dropFirst(prefix.count).dropLast(suffix.count)
        if let dash = id.lastIndex(of: "-"), id[id.index(after: dash)...].allSatisfy(\.isASCIIDigit) {
            id = id[..<dash]
        }
        return AssetContract.isAppID(id) ? .flatpak(appID: String(id)) : nil
    }

    /// `snap.spotify.spotify.<uuid>.scope`, `snap.spotify.spotify-<uuid>.scope` or
    /// `snap.spotify.spotify.service` → snap `spotify`, app `spotify`; hooks are not players.
    private static func snapUnit(_ component: Substring) -> Sandbox? {
        let parts = component.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == "snap", parts[2] != "hook" else { return nil }
        var app = parts[2]
        let uuidLength = 36
        if app.count > uuidLength + 1, isUUID(app.suffix(uuidLength)),
           app.dropLast(uuidLength).last == "-" {
            app = app.dropLast(uuidLength + 1)
        }
        guard AssetContract.isAppID(parts[1]), AssetContract.isAppID(app) else { return nil }
        return .snap(name: String(parts[1]), app: String(app))
    }

    private static func isUUID(_ text: Substring) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
