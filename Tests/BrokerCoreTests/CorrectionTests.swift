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
                                  correction: MediaCorrection(title: "Teardrop", artists: ["Massive Attack"]), created: 0)
        let rules = CorrectionRules([rule])
        #expect(rules.corrected(Self.asset("Teardorp", ["Massive Atack"]))?.title == "Teardrop")
        #expect(rules.corrected(Self.asset("Teardorp", ["Massive Atack"], app: "vlc")) == nil, "another app's")
        #expect(rules.corrected(Self.asset("Teardorp", ["Someone Else"])) == nil, "another artist's")
        #expect(rules.corrected(Self.asset("Angel", ["Massive Atack"])) == nil)
    }

    @Test("of two rules matching a listen, the newer corrects it")
    func newestRuleWins() {
        let rules = CorrectionRules([
            CorrectionRule(id: 1, appID: "spotify", title: "T", artists: [], correction: MediaCorrection(title: "First"), created: 1),
            CorrectionRule(id: 2, appID: "spotify", title: "T", artists: [], correction: MediaCorrection(title: "Second"), created: 2),
        ])
        #expect(rules.corrected(Self.asset("T", []))?.title == "Second")
        #expect(CorrectionRules().corrected(Self.asset("T", [])) == nil)
    }

    @Test("a rule made from a corrected listen changes only what the person changed")
    func ruleFromACorrectedListen() {
        let told = Self.asset("Teardorp", ["Massive Attack"], album: nil)
        let corrected = MediaCorrection(title: "Teardrop").applied(to: told)
        let rule = MediaCorrection(from: told, to: corrected)
        #expect(rule == MediaCorrection(title: "Teardrop"), "the artists and the (missing) album are left as told")
        #expect(rule.applied(to: Self.asset("Teardorp", ["Massive Attack"], album: "Mezzanine")).album == "Mezzanine")
        #expect(MediaCorrection(from: told, to: told).isEmpty)
        let cleared = MediaCorrection(from: Self.asset("T", album: "Wrong"), to: Self.asset("T", album: nil))
        #expect(cleared == MediaCorrection(album: .some(nil)), "clearing the album is a change")
    }
}
