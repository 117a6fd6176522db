/// What becomes of a listen's effects once its app is known: written, recorded, removed — or not,
/// by the person's settings and the twin rule. Pure: it returns what the store must do.
///
/// An effect is judged by the settings in force when it happened *and* those in force now: a
/// listen that began while Media was off (or its app opted out) stays out of the store to its end,
/// even if recording is allowed again meanwhile ("resumes with the next listen"), and an opt-out
/// made while an effect was held back still applies.
package struct ListenRecorder {
    /// What the store is asked to do for one effect.
    package enum StoreWork: Equatable {
        /// Write (or overwrite) the record of a listen in progress.
        case saveOpenListen(key: String, asset: MediaAsset, checkpoint: Microseconds)
        /// Remove the record of a listen in progress (it ended unrecorded, or was never allowed).
        case removeOpenListen(key: String)
        /// Record the finished listen, removing its record in progress.
        case record(MediaAsset, openKey: String)
        /// Keep this art in the artwork folder: a listen written next names it.
        case keepArtwork(SecuredArtwork)
        /// Remove the record in progress of a listen another player's listen already counts.
        case removeTwin(key: String)
    }

    /// The player an effect comes from, as the recorder needs to know it.
    package struct Source {
        var uniqueName: String
        var appID: String
        var appName: String?
        var appIcon: String?
        var isProxy: Bool
        /// Whether the app is a web browser, whose listens have a site.
        var isBrowser = false
        /// `artUrl` → the path of its file in the artwork folder, for the art secured lately.
        var artworkFiles: [String: String] = [:]
    }

    /// The settings in force now.
    var privacy: PrivacySettings
    /// Store keys of listens that began while their app could not be recorded.
    private var suppressed: Set<String> = []
    private var twins = TwinRule()

    init(privacy: PrivacySettings) {
        self.privacy = privacy
    }

    /// What to do for `effect` from `source`. `settingsThen`: the settings in force when the effect
    /// happened (and when the effects it replaced while held did). `othersPlaying`: the listens in
    /// progress on other players, asked for only by the twin rule for a proxy.
    mutating func perform(
        _ effect: ListenEffect, from source: Source, settingsThen: some Collection<PrivacySettings>, at now: Microseconds,
        othersPlaying: () -> [TwinRule.Playing]
    ) -> StoreWork? {
        let key = effect.listen.storeKey(player: source.uniqueName)
        let site = Self.site(of: effect.listen, from: source)
        let allowed = settingsThen.allSatisfy { $0.allows(source.appID, site: site) } && privacy.allows(source.appID, site: site)
        switch effect {
        case .opened(let listen), .checkpoint(let listen):
            guard !suppressed.contains(key) else { return nil }
            guard allowed else {
                suppressed.insert(key)
                return .removeOpenListen(key: key)
            }
            guard let asset = asset(listen, source, site: site)?.bounded else { return nil }
            return .saveOpenListen(key: key, asset: asset, checkpoint: listen.ended)
        case .finished(let listen):
            guard !unsuppress(key), allowed, let asset = asset(listen, source, site: site) else { return .removeOpenListen(key: key) }
            if twins.isTwin(listen, from: source.uniqueName, isProxy: source.isProxy, at: now, othersPlaying: othersPlaying) {
                return .removeTwin(key: key)
            }
            twins.remember(listen, from: source.uniqueName)
            return .record(asset, openKey: key)
        case .dropped:
            unsuppress(key)
            return .removeOpenListen(key: key)
        }
    }

    /// `site`: the listen's, as ``site(of:from:)`` found it for the settings check.
    private func asset(_ listen: Listen, _ source: Source, site: String?) -> MediaAsset? {
        var asset = listen.asset(appID: source.appID, appName: source.appName, appIcon: source.appIcon)
        if let url = listen.metadata.artURL { asset?.artwork = source.artworkFiles[url] }
        asset?.site = site
        return asset
    }

    /// The site a listen played on: only a browser's listens have one.
    static func site(of listen: Listen, from source: Source) -> String? {
        source.isBrowser ? BrowserSites.site(ofPage: listen.metadata.url) : nil
    }

    /// Forgets that the listen `key` was suppressed; whether it was. An empty set is not asked:
    /// that would hash the key of every finished listen for nothing.
    @discardableResult
    private mutating func unsuppress(_ key: String) -> Bool {
        !suppressed.isEmpty && suppressed.remove(key) != nil
    }
}
