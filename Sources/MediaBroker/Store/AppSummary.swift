/// One app as the history knows it, for `Apps()`.
public struct AppSummary: Sendable, Hashable {
    public var appID: String
    /// The name and icon of the app's most recent asset.
    public var appName: String?
    public var appIcon: String?
    public var listens: Int
    /// `started` of the app's most recent asset.
    public var lastSeen: Microseconds

    public init(appID: String, appName: String?, appIcon: String?, listens: Int, lastSeen: Microseconds) {
        self.appID = appID
        self.appName = appName
        self.appIcon = appIcon
        self.listens = listens
        self.lastSeen = lastSeen
    }
}
