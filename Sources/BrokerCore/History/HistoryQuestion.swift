/// A question of the history that the person's settings restrict: `RecentMedia`, `Moments`.
package protocol HistoryQuestion {
    var appID: String? { get }
    var excludingApps: Set<String> { get set }
}

extension HistoryQuestion {
    /// The question as the person's settings allow it: opted-out apps are never answered; `nil`
    /// when nothing may be (Media is off, or the app asked for is opted out).
    package func allowed(by settings: PrivacySettings) -> Self? {
        guard settings.mediaEnabled else { return nil }
        if let appID, settings.optOuts[appID] != nil { return nil }
        var allowed = self
        allowed.excludingApps = Set(settings.optOuts.keys)
        return allowed
    }
}

extension RecentQuery: HistoryQuestion {}
extension MomentsQuery: HistoryQuestion {}
