import Localization
import FoundationEssentials
import MediaDonationClient

/// What `broker-ctl apps` prints.
enum AppsOutput {
    static var emptyMessage: String { localized("No apps seen yet.") + "\n" }

    /// A table sorted by app id, times local.
    static func table(_ apps: [AppInfo], newApps: NewAppsMode, timeZone: some UTCOffsetRule, width: Int) -> String {
        guard !apps.isEmpty else { return emptyMessage }
        let rows = sorted(apps).map { app in
            [
                RecentOutput.cell(app.appID), RecentOutput.cell(app.appName), String(app.listens),
                app.lastSeen.map { timeZone.civilTime(at: $0).localeMinuteText } ?? "-",
                recordedText(app, newApps: newApps), RecentOutput.cell(app.appIcon),
            ]
        }
        return TextTable(
            headers: [localized("ID"), localized("NAME"), localized("LISTENS"), localized("LAST SEEN"), localized("RECORDED"), localized("ICON")], rows: rows, fixedColumns: [2, 3, 4]
        ).rendered(width: width)
    }

    /// Whether the app is recorded, and by whose decision.
    static func recordedText(_ app: AppInfo, newApps: NewAppsMode) -> String {
        if app.isOptedOut {
            switch app.optedOutBy {
            case .app: return localized("opted out by the app")
            case .user: return localized("opted out by you")
            case nil: return localized("opted out")
            }
        }
        if app.isAllowed { return localized("allowed") }
        switch newApps {
        case .record: return localized("yes")
        case .ask: return localized("asks first")
        case .ignore: return localized("no")
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
            object.add("allowed", JSONValue.bool(app.isAllowed))
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
