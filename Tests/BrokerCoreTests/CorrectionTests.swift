import Testing
@testable import BrokerCore

/// "That's not what it was" (issue 34, §3): a correction changes only what it names, and a rule
/// corrects later listens of the same app's same told title and artists — not another app's.
@Suite("Corrections: a listen's words, and rules for the next plays")
struct CorrectionTests {
    static func asset(_ title: String, _ artists: [String] = ["Artist"], album: String? = "Album", app: String = "spotify") -> MediaAsset {
        MediaAsset(title: title, artists: artists, album: album, appID: app, started: 1, ended: 2, listened: 1, source: .mpris)
    }

    @Test("a correction changes only the fields it names; an album can be cleared")
    func changesOnlyWhatItNames() {
        let told = Self.asset("Teardorp", ["Massive Atack"])
        let title = MediaCorrection(title: "Teardrop").applied(to: told)
        #expect(title.title == "Teardrop" && title.artists == ["Massive Atack"] && title.album == "Album")
        let all = MediaCorrection(title: "Teardrop", artists: ["Massive Attack"], album: .some(nil)).applied(to: told)
        #expect(all.title == "Teardrop" && all.artists == ["Massive Attack"] && all.album == nil)
        #expect(MediaCorrection().isEmpty && !MediaCorrection(album: .some(nil)).isEmpty)
    }

    @Test("a rule corrects the same app's same told title and artists, and nothing else")
    func ruleMatches() {
        let rule = CorrectionRule(id: 1, appID: "spotify", title: "Teardorp", artists: ["Massive Atack"],
                                  correction: MediaCorrection(title: "Teardrop", artists: ["Massive Attack"]))
        let rules = CorrectionRules([rule])
        #expect(rules.corrected(Self.asset("Teardorp", ["Massive Atack"])).title == "Teardrop")
        #expect(rules.corrected(Self.asset("Teardorp", ["Massive Atack"], app: "vlc")).title == "Teardorp", "another app's")
        #expect(rules.corrected(Self.asset("Teardorp", ["Someone Else"])).title == "Teardorp", "another artist's")
        #expect(rules.corrected(Self.asset("Angel", ["Massive Atack"])).title == "Angel")
    }

    @Test("a newer rule for the same track replaces the older; removing a rule stops it")
    func rulesReplaceAndRemove() {
        var rules = CorrectionRules()
        rules.add(CorrectionRule(id: 1, appID: "spotify", title: "T", artists: [], correction: MediaCorrection(title: "First")))
        rules.add(CorrectionRule(id: 2, appID: "spotify", title: "T", artists: [], correction: MediaCorrection(title: "Second")))
        #expect(rules.rules.map(\.id) == [2])
        #expect(rules.corrected(Self.asset("T", [])).title == "Second")
        #expect(rules.remove(id: 2) && !rules.remove(id: 2))
        #expect(rules.corrected(Self.asset("T", [])).title == "T")
    }
}
