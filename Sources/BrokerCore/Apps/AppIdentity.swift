/// What the tracker knows about a player when it asks who the app is.
package struct PlayerClues: Hashable, Sendable {
    /// The MPRIS well-known name, e.g. `org.mpris.MediaPlayer2.firefox.instance_1_66`.
    package var busName: String
    /// The root interface's `DesktopEntry` property, as the player sent it.
    package var desktopEntry: String?
    /// The root interface's `Identity` property, as the player sent it.
    package var identity: String?
    /// The owner's process, from the bus daemon (`GetConnectionUnixProcessID`); nil if unknown.
    package var process: ConnectedProcess?

    package init(busName: String, desktopEntry: String? = nil, identity: String? = nil, process: ConnectedProcess? = nil) {
        self.busName = busName
        self.desktopEntry = desktopEntry
        self.identity = identity
        self.process = process
    }
}

/// The app behind a player, as stored in every asset (`app_id`, `app_name`, `app_icon`).
package struct AppIdentity: Equatable, Sendable {
    /// How `appID` was found.
    package enum Source: Equatable, Sendable {
        /// The process runs in a Flatpak sandbox: its Flatpak app id.
        case flatpak
        /// The process runs in a snap: its desktop-file id `<snap>_<app>`, else the snap's name.
        case snap
        /// The player's `DesktopEntry` names an installed desktop file.
        case desktopEntry
        /// An installed desktop file matched a clue (see `AppResolver`).
        case desktopFileMatch
        /// Nothing installed matched: the bus-name stem without instance suffix.
        case busName
        /// `identity(forAppID:)`: the id was given.
        case given
    }

    package var appID: String
    /// The desktop file's `Name` in the user's locale, else the player's `Identity`.
    package var appName: String?
    /// An absolute path to a PNG or SVG file that existed when resolved.
    package var appIcon: String?
    package var source: Source

    package init(appID: String, appName: String?, appIcon: String?, source: Source) {
        self.appID = appID
        self.appName = appName
        self.appIcon = appIcon
        self.source = source
    }
}

extension PlayerClues {
    /// `org.mpris.MediaPlayer2.vlc.instance7389` → `vlc`; `…firefox.instance_1_66` → `firefox`;
    /// `…chromium.instance6013` → `chromium`. The suffix is `.instance` followed by digits and
    /// underscores only; a name outside the MPRIS namespace is used whole.
    package static func stem(ofBusName busName: String) -> String {
        let prefix = PlayersCore.mprisPrefix
        let rest = busName.hasPrefix(prefix) ? Substring(busName.dropFirst(prefix.count)) : Substring(busName)
        var stem = rest
        if let dot = rest.lastIndex(of: "."), rest[rest.index(after: dot)...].hasPrefix("instance") {
            let suffix = rest[rest.index(after: dot)...].dropFirst("instance".count)
            if !suffix.isEmpty, suffix.allSatisfy({ $0 == "_" || ($0.isASCII && $0.isNumber) }) {
                stem = rest[..<dot]
            }
        }
        return stem.isEmpty ? busName : String(stem)
    }
}
