extension MediaAsset {
    /// Why `Donate` may not record this asset, by the rule and the person's settings: a `listened`
    /// the app told (`listenedTold`) too short to count, a `started` older than the history is kept
    /// (it would be announced, then deleted by the next retention pass), Media switched off,
    /// recording paused, the app opted out, or not allowed while new apps are not recorded at
    /// once. `nil`: it may.
    package func refusalOfDonation(listenedTold: Bool, now: Microseconds, rule: ListenRule, settings: PrivacySettings) -> Refusal? {
        if listenedTold, !rule.qualifies(listened: listened, length: length) {
            return Refusal(.invalidArgs, "'listened' is too short to count as a listen")
        }
        if settings.hasExpired(started: started, now: now) {
            return Refusal(.invalidArgs, "'started' is more than \(settings.retentionDays) days ago, older than the history is kept (RetentionDays)")
        }
        guard settings.mediaEnabled else { return Refusal(.mediaDisabled, "media recording is switched off") }
        if settings.pausedUntil != nil { return Refusal(.paused, "recording is paused; nothing is recorded until it resumes") }
        if settings.optOuts[appID] != nil { return Refusal(.appOptedOut, "\(appID) is opted out; nothing of it is recorded") }
        guard settings.recordsApp(appID) else {
            return Refusal(.appNotAllowed, "\(appID) is not recorded until the person allows it: new apps are "
                + (settings.newApps == .ask ? "asked about first" : "not recorded") + " (`broker-ctl opt-in \(appID)` allows it)")
        }
        return nil
    }
}
