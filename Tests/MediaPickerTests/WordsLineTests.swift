import FoundationEssentials
import MediaDonationClient
@testable import MediaPicker
import Testing

/// How the settings window's rows word a listen and a correction rule (issue 34).
@Suite struct WordsLineTests {
    static func rule(correctedTitle: String? = nil, correctedArtists: [String]? = nil, correctedAlbum: String?? = nil) -> CorrectionRuleInfo {
        CorrectionRuleInfo(id: 1, appID: "org.example.Radio", title: "Teardrop", artists: ["Massive Attack"],
                           correctedTitle: correctedTitle, correctedArtists: correctedArtists, correctedAlbum: correctedAlbum,
                           created: Date(timeIntervalSince1970: 0))
    }

    @Test("a listen reads title — artists, or its title alone")
    func listen() {
        #expect(WordsLine.of(title: "Teardrop", artists: ["Massive Attack", "Elizabeth Fraser"]) == "Teardrop — Massive Attack, Elizabeth Fraser")
        #expect(WordsLine.of(title: "Teardrop", artists: []) == "Teardrop")
    }

    @Test("a rule reads the words it matches, the app and the words later plays get; words it leaves stay as told")
    func rule() {
        #expect(WordsLine.rule(Self.rule(correctedTitle: "Teardrop (Live)"), in: "Radio")
            == "Teardrop — Massive Attack in Radio → Teardrop (Live) — Massive Attack")
        #expect(WordsLine.rule(Self.rule(correctedArtists: ["Massive Attack", "Elizabeth Fraser"]), in: "Radio")
            == "Teardrop — Massive Attack in Radio → Teardrop — Massive Attack, Elizabeth Fraser")
    }

    @Test("a rule that sets or clears the album says so")
    func album() {
        #expect(WordsLine.rule(Self.rule(correctedAlbum: .some("Mezzanine")), in: "Radio")
            == "Teardrop — Massive Attack in Radio → Teardrop — Massive Attack · Mezzanine")
        #expect(WordsLine.rule(Self.rule(correctedAlbum: .some(nil)), in: "Radio")
            == "Teardrop — Massive Attack in Radio → Teardrop — Massive Attack · no album")
    }
}
