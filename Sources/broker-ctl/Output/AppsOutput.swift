import FoundationEssentials
import MediaDonationClient

/// What `broker-ctl apps` prints.
enum AppsOutput {
    static let emptyMessage = "No apps seen yet.\n"

    /// A table sorted by app id, times local.
    static func table(_ apps: [AppInfo], timeZone: some UTCOffsetRule, width: Int) -> String {
        guard !apps.isEmpty else { return emptyMessage }
        let rows = sorted(apps).map { app in
            [
                RecentOutput.cell(app.appID), RecentOutput.cell(app.appName), String(app.listens),
                app.lastSeen.map { timeZone.civilTime(at: $0).minuteText } ?? "-",
                optedOutText(app), RecentOutput.cell(app.appIcon),
            ]
        }
        return TextTable(
            headers: ["ID", "NAME", "LISTENS", "LAST SEEN", "OPTED OUT", "ICON"], rows: rows, fixedColumns: [2, 3, 4]
        ).rendered(width: width)
    }

    /// `-`, `by you` or `by the app`.
    static func optedOutText(_ app: AppInfo) -> String {
        guard app.isOptedOut else { return "-" }
        switch app.optedOutBy {
        case .app: return "by the app"
        case .user: return "by you"
        case nil: return "yes"
        }
    }

    /// The ids alone, one a line, for shell completion.
    static func ids(_ apps: [AppInfo]) -> String {
        sorted(apps).map { $0.appID + "\n" }.joined()
    }

    /// One JSON object a line, with the keys of the contract's `Apps()`.
    static func jsonLines(_ apps: [AppInfo]) -> String {
        sorted(apps).map { app in
            var object = JSONObjectBuilder()
            object.add("app_id", app.appID)
            object.add("app_name", app.appName)
            object.add("app_icon", app.appIcon)
            object.add("opted_out", JSONValue.bool(app.isOptedOut))
            object.add("opted_out_by", app.optedOutBy?.rawValue)
            object.add("listens", Int64(app.listens))
            object.add("last_seen", app.lastSeen.map(RecentOutput.microsecondsSinceEpoch))
            object.add("last_seen_iso", app.lastSeen.map { UTC().civilTime(at: $0).utcISO8601Text })
            return object.object.serialized + "\n"
        }.joined()
    }

    private static func sorted(_ apps: [AppInfo]) -> [AppInfo] {
        apps.sorted { $0.appID < $1.appID }
    }
}
