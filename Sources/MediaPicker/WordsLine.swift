import Localization
import MediaDonationClient

/// A listen's or a correction rule's words on one line, as the settings window's rows show them.
enum WordsLine {
    /// "Teardrop — Massive Attack"; the title alone when no artist is known.
    static func of(title: String, artists: [String]) -> String {
        // TRANSLATORS: a listen's words: its title, then its artists.
        artists.isEmpty ? title : localized("{title} — {artists}", ["title": title, "artists": ListenWords.text(of: artists)])
    }

    /// "Teardrop — Massive Attack in Radio → Teardrop (Live) — Massive Attack": the words the rule
    /// matches, the app, and the words later plays get. A rule that sets the album says it after
    /// them; one that clears it says so.
    static func rule(_ rule: CorrectionRuleInfo, in app: String) -> String {
        let told = of(title: rule.title, artists: rule.artists)
        var corrected = of(title: rule.correctedTitle ?? rule.title, artists: rule.correctedArtists ?? rule.artists)
        switch rule.correctedAlbum {
        case nil: break
        case .some(nil): corrected += " · " + localized("no album")
        case .some(let album?): corrected += " · \(album)"
        }
        // TRANSLATORS: a correction rule: the words it matches, in which app, and the words later plays get.
        return localized("{told} in {app} → {corrected}", ["told": told, "app": app, "corrected": corrected])
    }
}
