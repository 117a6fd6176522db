import AssetContract

/// Who may opt an app out or in, and what that changes. Pure.
package enum OptOutRequest {
    /// What to do with the person's settings.
    package enum Decision: Equatable {
        /// Nothing changes; the call succeeds.
        case unchanged
        /// The app is opted out by `source`; the person's opt-out also takes back their allowing it.
        case optOut(PrivacySettings.OptOutSource)
        /// The app's own opt-out is withdrawn (a player's `OptIn`): it is new again, not allowed.
        case withdrawOptOut
        /// The person allows the app: any opt-out goes, and it is recorded whatever `new_apps` says.
        case allow
        case refused(Refusal)

        /// `settings` as the decision leaves them for `appID`.
        package func apply(to settings: inout PrivacySettings, appID: String) {
            switch self {
            case .unchanged, .refused: return
            case .optOut(let source):
                settings.optOuts[appID] = source
                if source == .user { settings.allowedApps.remove(appID) }
            case .withdrawOptOut:
                settings.optOuts[appID] = nil
            case .allow:
                settings.optOuts[appID] = nil
                settings.allowedApps.insert(appID)
            }
        }
    }

    /// The person opts `appID` out or in (`SetAppOptedOut`, a new app's question): the person
    /// decides, so opting in clears the opt-out whoever made it and allows the app.
    package static func byPerson(appID: String, optedOut: Bool) -> Decision {
        guard AssetContract.isAppID(appID) else { return .refused(Refusal(.invalidArgs, "'app_id': \(AssetContract.appIDRule)")) }
        return optedOut ? .optOut(.user) : .allow
    }

    /// A player opts its own app out or in (`OptOut`/`OptIn`); `appID` is the app its MPRIS name
    /// resolves to (`nil`: the caller owns no player name). A player cannot undo the person's
    /// opt-out.
    package static func byPlayer(appID: String?, out: Bool, settings: PrivacySettings) -> Decision {
        guard let appID else {
            return .refused(Refusal(.notAPlayer, "only a connection that owns an org.mpris.MediaPlayer2.* name can opt itself \(out ? "out" : "in")"))
        }
        switch (out, settings.optOuts[appID]) {
        case (true, nil): return .optOut(.app)
        case (true, _?), (false, nil): return .unchanged
        case (false, .user?): return .refused(Refusal(.optedOutByUser, "\(appID) was opted out by the user; only the user can opt it back in"))
        case (false, .app?): return .withdrawOptOut
        }
    }
}
