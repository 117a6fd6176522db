import SwiftDBus
import BrokerCore

/// `Apps`'s answer: every app the person may want to control — those in the history, those
/// playing now, those asked about in this run, those opted out or allowed — with the name and icon its desktop file tells today, else
/// what was stored. Pure: the caller gathers the parts.
enum AppsList {
    static func entries(history: [AppSummary], playing: [PlayerSummary], askedAbout: Set<String> = [], settings: PrivacySettings,
                        identity: (String) -> AppIdentity) -> [DBusValue] {
        var byID: [String: [String: DBusValue]] = [:]
        func entry(_ id: String) -> [String: DBusValue] {
            byID[id] ?? ["app_id": .string(id), "listens": .uint32(0), "opted_out": .boolean(false),
                         "allowed": .boolean(settings.allowedApps.contains(id))]
        }
        for summary in history {
            var fields = entry(summary.appID)
            if let name = summary.appName { fields["app_name"] = .string(name) }
            if let icon = summary.appIcon { fields["app_icon"] = .string(icon) }
            fields["listens"] = .uint32(UInt32(clamping: summary.listens))
            fields["last_seen"] = .int64(summary.lastSeen)
            if !summary.sites.isEmpty { fields["sites"] = .strings(summary.sites) }
            byID[summary.appID] = fields
        }
        for player in playing where player.appID.utf8.count <= BrokerContract.maximumAppIDLength {
            byID[player.appID] = entry(player.appID)
        }
        for app in settings.allowedApps.union(askedAbout) { byID[app] = entry(app) }
        for (app, source) in settings.optOuts {
            var fields = entry(app)
            fields["opted_out"] = .boolean(true)
            fields["opted_out_by"] = .string(source.rawValue)
            byID[app] = fields
        }
        for (id, var fields) in byID {
            let found = identity(id)
            if let name = found.appName { fields["app_name"] = .string(name) }
            if let icon = found.appIcon { fields["app_icon"] = .string(icon) }
            byID[id] = fields
        }
        return byID.keys.sorted().compactMap { byID[$0].map(DBusValue.vardict) }
    }
}
