/// What a change of the person's settings means for everyone else: which properties clients are
/// told changed, whether retention runs again, and the log line. Pure.
package struct SettingsChange {
    package let before: PrivacySettings
    package let after: PrivacySettings

    package init(before: PrivacySettings, after: PrivacySettings) {
        self.before = before
        self.after = after
    }

    package var isChange: Bool { before != after }

    /// The broker's properties whose values changed, for `PropertiesChanged`.
    package var changedProperties: [String] {
        var changed: [String] = []
        if after.mediaEnabled != before.mediaEnabled { changed.append("MediaEnabled") }
        if after.optOuts.keys.sorted() != before.optOuts.keys.sorted() { changed.append("OptedOutApps") }
        if after.retentionDays != before.retentionDays { changed.append("RetentionDays") }
        if after.pausedUntil != before.pausedUntil { changed.append("PausedUntil") }
        if after.newApps != before.newApps { changed.append("NewApps") }
        if after.allowedApps != before.allowedApps { changed.append("AllowedApps") }
        if after.optedOutSites != before.optedOutSites { changed.append("OptedOutSites") }
        return changed
    }

    /// A new retention deletes what it no longer keeps at once, and sleeps anew.
    package var rerunsRetention: Bool { after.retentionDays != before.retentionDays }

    package var logLine: String {
        let allowed = after.readers.values.filter { $0.access == .allowed }.count
        return "settings changed: media \(after.mediaEnabled ? "on" : "off"), retention \(after.retentionDays) days, "
            + "\(after.optOuts.count) apps opted out, \(after.allowedApps.count) allowed, \(after.optedOutSites.count) sites opted out, new apps \(after.newApps.rawValue), "
            + "\(allowed) sandboxed apps allowed to read"
            + (after.pausedUntil.map { $0 == PrivacySettings.untilResumed ? ", paused until resumed" : ", paused until \($0) µs" } ?? "")
    }

    /// Only when apps last read moved: a debug line, not a log entry the person reads.
    package var onlyNotesReads: Bool {
        var before = before, after = after
        for app in before.readers.keys { before.readers[app]?.lastRead = nil }
        for app in after.readers.keys { after.readers[app]?.lastRead = nil }
        return before == after
    }
}
