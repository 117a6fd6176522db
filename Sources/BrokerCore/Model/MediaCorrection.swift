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

    /// The correction that makes `original`'s words read as `corrected`'s: only what differs, so
    /// a rule made from a corrected listen leaves alone what the person did not change (a later
    /// play's album, when only the title was wrong).
    package init(from original: MediaAsset, to corrected: MediaAsset) {
        self.init(title: corrected.title == original.title ? nil : corrected.title,
                  artists: corrected.artists == original.artists ? nil : corrected.artists,
                  album: corrected.album == original.album ? nil : .some(corrected.album))
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
    /// When the person made it.
    package var created: Microseconds

    package init(id: Int64, appID: String, title: String, artists: [String], correction: MediaCorrection, created: Microseconds) {
        self.id = id
        self.appID = appID
        self.title = title
        self.artists = artists
        self.correction = correction
        self.created = created
    }

    /// Whether `asset`, as it was told, is the listen this rule corrects.
    package func matches(_ asset: MediaAsset) -> Bool {
        asset.appID == appID && asset.title == title && asset.artists == artists
    }
}

/// The person's correction rules, newest last. Pure.
package struct CorrectionRules: Sendable, Hashable {
    package let rules: [CorrectionRule]

    package init(_ rules: [CorrectionRule] = []) {
        self.rules = rules
    }

    /// `asset` corrected by the newest rule that matches it; `nil` when none does. Applied to a
    /// listen that is recorded, so exclusion, opt-outs and a pause were applied before.
    package func corrected(_ asset: MediaAsset) -> MediaAsset? {
        guard !rules.isEmpty, let rule = rules.last(where: { $0.matches(asset) }) else { return nil }
        return rule.correction.applied(to: asset)
    }
}
