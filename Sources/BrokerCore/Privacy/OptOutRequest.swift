import AssetContract

/// Who may opt an app out or in, and what that changes. Pure.
package enum OptOutRequest {
    /// What to do with the person's settings.
    package enum Decision: Equatable {
        /// Nothing changes; the call succeeds.
        case unchanged
        /// Set the app's opt-out (`nil`: opted in).
        case set(PrivacySettings.OptOutSource?)
        case refused(Refusal)
    }

    /// The person opts `appID` out or in (`SetAppOptedOut`): the person decides, so opting in
    /// clears the opt-out whoever made it.
    package static func byPerson(appID: String, optedOut: Bool) -> Decision {
        guard AssetContract.isAppID(appID) else { return .refused(Refusal(.invalidArgs, "'app_id': \(AssetContract.appIDRule)")) }
        return .set(optedOut ? .user : nil)
    }

    /// A player opts its own app out or in (`OptOut`/`OptIn`); `appID` is the app its MPRIS name
    /// resolves to (`nil`: the caller owns no player name). A player cannot undo the person's
    /// opt-out.
    package static func byPlayer(appID: String?, out: Bool, settings: PrivacySettings) -> Decision {
        guard let appID else {
            return .refused(Refusal(.notAPlayer, "only a connection that owns an org.mpris.MediaPlayer2.* name can opt itself \(out ? "out" : "in")"))
        }
        switch (out, settings.optOuts[appID]) {
        case (true, nil): return .set(.app)
        case (true, _?), (false, nil): return .unchanged
        case (false, .user?): return .refused(Refusal(.optedOutByUser, "\(appID) was opted out by the user; only the user can opt it back in"))
        case (false, .app?): return .set(nil)
        }
    }
}
