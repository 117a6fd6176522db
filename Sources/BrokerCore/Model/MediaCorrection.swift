/// What the person corrects in a listen (issue 34, §3: "that's not what it was"): its title, its
/// artists, its album — the contract's text keys. A field left `nil` keeps its value; `album` set
/// to `.some(nil)` clears it. Pure.
package struct MediaCorrection: Sendable, Hashable {
    package var title: String?
    package var artists: [String]?
    package var album: String??

    package init(title: String? = nil, artists: [String]? = nil, album: String?? = nil) {
        self.title = title
        self.artists = artists
        self.album = album
    }

    /// Whether it corrects nothing.
    package var isEmpty: Bool { title == nil && artists == nil && album == nil }

    /// `asset` with the correction applied.
    package func applied(to asset: MediaAsset) -> MediaAsset {
        var corrected = asset
        if let title { corrected.title = title }
        if let artists { corrected.artists = artists }
        if let album { corrected.album = album }
        return corrected
    }
}

/// A correction the person asked to apply from now on: to every later listen of `appID` whose
/// title and artists, as the player told them, are `title` and `artists` — web-scrobbler's "edit
/// once, fixed for the next plays". Pure.
package struct CorrectionRule: Sendable, Hashable {
    package var id: Int64
    package var appID: String
    package var title: String
    package var artists: [String]
    package var correction: MediaCorrection

    package init(id: Int64, appID: String, title: String, artists: [String], correction: MediaCorrection) {
        self.id = id
        self.appID = appID
        self.title = title
        self.artists = artists
        self.correction = correction
    }

    /// Whether `asset`, as it was told, is the listen this rule corrects.
    package func matches(_ asset: MediaAsset) -> Bool {
        asset.appID == appID && asset.title == title && asset.artists == artists
    }
}

/// The person's correction rules, newest last. Pure.
package struct CorrectionRules: Sendable, Hashable {
    package private(set) var rules: [CorrectionRule]

    package init(_ rules: [CorrectionRule] = []) {
        self.rules = rules
    }

    /// `asset` corrected by the newest rule that matches it, unchanged when none does. Applied to
    /// a listen that is recorded, so exclusion, opt-outs and a pause were applied before.
    package func corrected(_ asset: MediaAsset) -> MediaAsset {
        guard !rules.isEmpty, let rule = rules.last(where: { $0.matches(asset) }) else { return asset }
        return rule.correction.applied(to: asset)
    }

    /// Adds `rule`, replacing one for the same app, title and artists.
    package mutating func add(_ rule: CorrectionRule) {
        rules.removeAll { $0.appID == rule.appID && $0.title == rule.title && $0.artists == rule.artists }
        rules.append(rule)
    }

    /// Removes the rule `id`; whether there was one.
    @discardableResult
    package mutating func remove(id: Int64) -> Bool {
        let count = rules.count
        rules.removeAll { $0.id == id }
        return rules.count != count
    }
}
