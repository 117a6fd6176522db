public import AssetContract
public import FoundationEssentials

/// One app the broker has seen or holds a decision about, as `Apps()` reports it.
public struct AppInfo: Sendable, Hashable, Identifiable {
    /// Who opted an app out.
    public enum OptedOutBy: String, Sendable, Hashable {
        /// The person (`SetAppOptedOut`, `broker-ctl opt-out`).
        case user
        /// The player itself (`OptOut`).
        case app
    }

    public var id: String { appID }
    public var appID: String
    public var appName: String?
    /// Absolute path of the app's icon file, when one resolves.
    public var appIcon: String?
    public var isOptedOut: Bool
    public var optedOutBy: OptedOutBy?
    /// Whether the person allowed the app: recorded whatever ``NewAppsMode`` says (interface
    /// version 7; `false` from an older broker).
    public var isAllowed: Bool
    /// For a web browser, the sites its kept listens played on, sorted (interface version 7).
    public var sites: [String]
    /// How many assets of this app the history holds.
    public var listens: Int
    /// When the app was last heard (its newest asset's start), if ever.
    public var lastSeen: Date?

    public init(appID: String, appName: String? = nil, appIcon: String? = nil, isOptedOut: Bool = false,
                optedOutBy: OptedOutBy? = nil, isAllowed: Bool = false, sites: [String] = [], listens: Int = 0,
                lastSeen: Date? = nil) {
        self.appID = appID
        self.appName = appName
        self.appIcon = appIcon
        self.isOptedOut = isOptedOut
        self.optedOutBy = optedOutBy
        self.isAllowed = isAllowed
        self.sites = sites
        self.listens = listens
        self.lastSeen = lastSeen
    }
}

/// What becomes of an app the person has neither allowed nor opted out (`NewApps`, interface
/// version 7).
public enum NewAppsMode: String, Sendable, Hashable, CaseIterable {
    /// Recorded at once (the default).
    case record
    /// Its listens are held while the person is asked once, by a notification.
    case ask
    /// Not recorded: only the apps the person allowed are.
    case ignore
}

/// Which assets ``MediaBrokerClient/purge(_:)`` deletes: every asset of one app (`.app`), those
/// that started in `since ..< until` (`.range`; a missing bound is open, but not both), or `.all`.
public typealias PurgeScope = HistoryScope<Date>

/// A direct donation from an app that does not speak MPRIS — the counterpart of Apple's
/// Now Playing donation.
public struct Donation: Sendable, Hashable {
    /// The donating app's id (its desktop-file id without `.desktop`).
    public var appID: String
    public var title: String
    public var artists: [String]
    public var album: String?
    /// When the listen began; the broker uses "now" when `nil`.
    public var started: Date?
    public var length: Duration?
    /// How long it was actually heard, when the app knows.
    public var listened: Duration?

    public init(appID: String, title: String, artists: [String] = [], album: String? = nil, started: Date? = nil,
                length: Duration? = nil, listened: Duration? = nil) {
        self.appID = appID
        self.title = title
        self.artists = artists
        self.album = album
        self.started = started
        self.length = length
        self.listened = listened
    }
}
