/// What the tracker knows about a player when it asks who the app is.
public struct PlayerClues: Hashable, Sendable {
    /// The MPRIS well-known name, e.g. `org.mpris.MediaPlayer2.firefox.instance_1_66`.
    public var busName: String
    /// The root interface's `DesktopEntry` property, as the player sent it.
    public var desktopEntry: String?
    /// The root interface's `Identity` property, as the player sent it.
    public var identity: String?
    /// The owner's process, from the bus daemon (`GetConnectionUnixProcessID`); nil if unknown.
    public var process: ConnectedProcess?

    public init(busName: String, desktopEntry: String? = nil, identity: String? = nil, process: ConnectedProcess? = nil) {
        self.busName = busName
        self.desktopEntry = desktopEntry
        self.identity = identity
        self.process = process
    }
}

/// The app behind a player, as stored in every asset (`app_id`, `app_name`, `app_icon`).
public struct AppIdentity: Equatable, Sendable {
    /// How `appID` was found.
    public enum Source: Equatable, Sendable {
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

    public var appID: String
    /// The desktop file's `Name` in the user's locale, else the player's `Identity`.
    public var appName: String?
    /// An absolute path to a PNG or SVG file that existed when resolved.
    public var appIcon: String?
    public var source: Source

    public init(appID: String, appName: String?, appIcon: String?, source: Source) {
        self.appID = appID
        self.appName = appName
        self.appIcon = appIcon
        self.source = source
    }
}
