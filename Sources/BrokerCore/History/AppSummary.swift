/// One app as the history knows it, for `Apps()`.
package struct AppSummary: Sendable, Hashable {
    package var appID: String
    /// The name and icon of the app's most recent asset.
    package var appName: String?
    package var appIcon: String?
    package var listens: Int
    /// `started` of the app's most recent asset.
    package var lastSeen: Microseconds
    /// For a web browser, the sites its listens in the history played on, sorted.
    package var sites: [String]

    package init(appID: String, appName: String?, appIcon: String?, listens: Int, lastSeen: Microseconds, sites: [String] = []) {
        self.appID = appID
        self.appName = appName
        self.appIcon = appIcon
        self.listens = listens
        self.lastSeen = lastSeen
        self.sites = sites
    }
}
