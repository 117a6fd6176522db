import AssetContract
import SwiftDBus

/// What a change of the person's settings means for everyone else: which properties clients are
/// told changed, whether retention runs again, and the log line. Pure.
struct SettingsChange {
    let before: PrivacySettings
    let after: PrivacySettings

    var isChange: Bool { before != after }

    /// The broker's properties whose values changed, for `PropertiesChanged`.
    var changedProperties: [MemberName] {
        var changed: [MemberName] = []
        if after.mediaEnabled != before.mediaEnabled { changed.append("MediaEnabled") }
        if after.optOuts.keys.sorted() != before.optOuts.keys.sorted() { changed.append("OptedOutApps") }
        if after.retentionDays != before.retentionDays { changed.append("RetentionDays") }
        return changed
    }

    /// A new retention deletes what it no longer keeps at once, and sleeps anew.
    var rerunsRetention: Bool { after.retentionDays != before.retentionDays }

    var logLine: String {
        let allowed = after.readers.values.filter { $0.access == .allowed }.count
        return "settings changed: media \(after.mediaEnabled ? "on" : "off"), retention \(after.retentionDays) days, "
            + "\(after.optOuts.count) apps opted out, \(allowed) sandboxed apps allowed to read"
    }

    /// Only when apps last read moved: a debug line, not a log entry the person reads.
    var onlyNotesReads: Bool {
        var before = before, after = after
        for app in before.readers.keys { before.readers[app]?.lastRead = nil }
        for app in after.readers.keys { after.readers[app]?.lastRead = nil }
        return before == after
    }
}

/// Who may opt an app out or in, and what that changes. Pure.
enum OptOutRequest {
    /// What to do with the person's settings.
    enum Decision: Equatable {
        /// Nothing changes; the call succeeds.
        case unchanged
        /// Set the app's opt-out (`nil`: opted in).
        case set(PrivacySettings.OptOutSource?)
        case refused(BusError)
    }

    /// The person opts `appID` out or in (`SetAppOptedOut`): the person decides, so opting in
    /// clears the opt-out whoever made it.
    static func byPerson(appID: String, optedOut: Bool) -> Decision {
        guard AssetContract.isAppID(appID) else { return .refused(.invalidArgs("'app_id': \(AssetContract.appIDRule)")) }
        return .set(optedOut ? .user : nil)
    }

    /// A player opts its own app out or in (`OptOut`/`OptIn`); `appID` is the app its MPRIS name
    /// resolves to (`nil`: the caller owns no player name). A player cannot undo the person's
    /// opt-out.
    static func byPlayer(appID: String?, out: Bool, settings: PrivacySettings) -> Decision {
        guard let appID else {
            return .refused(BusError(.notAPlayer, "only a connection that owns an org.mpris.MediaPlayer2.* name can opt itself \(out ? "out" : "in")"))
        }
        switch (out, settings.optOuts[appID]) {
        case (true, nil): return .set(.app)
        case (true, _?), (false, nil): return .unchanged
        case (false, .user?): return .refused(BusError(.optedOutByUser, "\(appID) was opted out by the user; only the user can opt it back in"))
        case (false, .app?): return .set(nil)
        }
    }
}

extension PrivacySettings {
    /// What journaling apps may see of `playing`: nothing with Media off, nothing of an opted-out
    /// app, and only assets within the contract's bounds.
    func shown(_ playing: [MediaAsset]) -> [MediaAsset] {
        guard mediaEnabled else { return [] }
        return playing.filter { allows($0.appID) }.compactMap(\.bounded)
    }
}
