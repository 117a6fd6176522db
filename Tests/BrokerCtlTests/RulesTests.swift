import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

/// `broker-ctl rules` and `rules remove ID`: the person sees and removes the corrections applied
/// to later listens.
@Suite struct RulesTests {
    static let made = Date(timeIntervalSince1970: 1_764_590_400)  // 2025-12-01 12:00 UTC
    static let teardrop = CorrectionRuleInfo(id: 3, appID: "spotify", title: "Teardorp", artists: ["Massive Atack"],
                                             correctedTitle: "Teardrop", correctedArtists: ["Massive Attack"], created: made)
    static let albumOnly = CorrectionRuleInfo(id: 5, appID: "mpv", title: "Angel", artists: [], correctedAlbum: .some(nil), created: made)

    @Test func theTableShowsWhatEachRuleMatchesAndSets() async {
        let result = await runBrokerCtl(["rules"], broker: FakeBroker(rules: [Self.teardrop, Self.albumOnly]))
        #expect(result.exitCode == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ID") && lines[0].contains("RECORDED AS"))
        #expect(lines[1].hasPrefix("3") && lines[1].contains("Teardorp — Massive Atack") && lines[1].contains("Teardrop — Massive Attack"))
        #expect(lines[2].hasPrefix("5") && lines[2].contains("… (no album)"), "a field left as told reads …")
    }

    @Test func noRulesSaySoAndHowToMakeOne() async {
        let result = await runBrokerCtl(["rules"], broker: FakeBroker())
        #expect(result.standardOutput == RulesOutput.emptyMessage)
    }

    @Test func jsonCarriesTheContractKeys() async {
        let result = await runBrokerCtl(["rules", "--json"], broker: FakeBroker(rules: [Self.teardrop, Self.albumOnly]))
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first == #"{"id":3,"app_id":"spotify","title":"Teardorp","artists":["Massive Atack"],"correction":{"title":"Teardrop","artists":["Massive Attack"]},"created":1764590400000000}"#)
        #expect(lines.last?.contains(#""correction":{"album":""}"#) == true, "a cleared album is empty")
        let ids = await runBrokerCtl(["rules", "--ids"], broker: FakeBroker(rules: [Self.teardrop, Self.albumOnly]))
        #expect(ids.standardOutput == "3\n5\n")
    }

    @Test func removeRemovesTheRule() async {
        let broker = FakeBroker()
        let result = await runBrokerCtl(["rules", "remove", "3"], broker: broker)
        #expect(result.exitCode == 0 && result.standardOutput.contains("Removed rule 3"))
        #expect(broker.changes == [.removeRule(3)])
    }

    @Test(arguments: [
        (["rules", "delete", "3"], "expected 'remove ID', not 'delete'"),
        (["rules", "remove"], "'rules remove' takes the rule's id, a positive number, as 'broker-ctl rules' lists it"),
        (["rules", "remove", "0"], "'rules remove' takes the rule's id, a positive number, as 'broker-ctl rules' lists it"),
        (["rules", "remove", "3", "--json"], "'rules remove' takes no --json or --ids"),
    ] as [([String], String)])
    func mistakesAreUsageErrors(_ words: [String], message: String) {
        #expect(usageError(words) == UsageError(message, subcommand: "rules"))
    }

    @Test func anUnknownRuleExits1WithTheBrokersWords() async {
        let broker = FakeBroker(failures: ["removeRule": .invalidArguments("there is no correction rule 9")])
        let result = await runBrokerCtl(["rules", "remove", "9"], broker: broker)
        #expect(result.exitCode == 1 && result.standardError.contains("there is no correction rule 9"))
    }
}
