import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

@Suite struct NowTests {
    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func parsesWithAndWithoutJSON() throws {
        #expect(try parse(["now"], as: NowCommand.self) == NowCommand())
        #expect(try parse(["now", "--json"], as: NowCommand.self) == NowCommand(printsJSON: true))
    }

    @Test(arguments: [["now", "mpv"], ["now", "--json=1"], ["now", "--limit", "3"]])
    func anythingElseIsAUsageError(_ words: [String]) async {
        let run = await runBrokerCtl(words)
        #expect(run.exitCode == 64)
        #expect(run.standardError.contains("Usage: broker-ctl now [--json]\n"))
    }

    @Test func theTableIsRecentsPlusListened() {
        var second = GenericMedia.sample(id: 2, started: "2026-11-29T14:01:00Z")
        second.title = "Jóga"
        second.listened = .seconds(3725)
        second.appID = "vlc"
        var third = GenericMedia.bare(id: 3, started: "2026-11-29T14:04:00Z")
        third.listened = nil
        let table = NowOutput.table([.sample(), second, third], timeZone: plusTwo, width: 120)
        #expect(
            lines(table) == [
                "WHEN              TITLE     ARTIST          ALBUM      APP  LISTENED",
                "2026-11-29 15:00  Teardrop  Massive Attack  Mezzanine  mpv  5:29",
                "2026-11-29 16:01  Jóga      Massive Attack  Mezzanine  vlc  1:02:05",
                "2026-11-29 16:04  -         -               -          -    -",
            ])
    }

    @Test func listenedReadsLikeAPlayersClock() {
        #expect(NowOutput.clockText(.zero) == "0:00")
        #expect(NowOutput.clockText(.milliseconds(7_900)) == "0:07")
        #expect(NowOutput.clockText(.seconds(329)) == "5:29")
        #expect(NowOutput.clockText(.seconds(3600)) == "1:00:00")
        #expect(NowOutput.clockText(.seconds(-5)) == "0:00")
    }

    @Test func nothingPlayingSaysSo() async {
        let run = await runBrokerCtl(["now"])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "Nothing is playing.\n")
        #expect(await runBrokerCtl(["now", "--json"]).standardOutput == "")
    }

    @Test func printsTheTableOrOneJSONObjectPerPlayer() async throws {
        let broker = FakeBroker(nowPlaying: .success([.sample(id: 4), .bare(id: 5, started: "2026-11-29T14:00:00Z")]))
        let table = await runBrokerCtl(["now"], broker: broker, timeZone: plusTwo)
        #expect(table.standardOutput == NowOutput.table(try broker.playing.get(), timeZone: plusTwo, width: 100))
        let json = await runBrokerCtl(["now", "--json"], broker: broker)
        #expect(json.exitCode == 0)
        let objects = try json.standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["id"] as? Int } == [4, 5])
        #expect(objects[0]["listened"] as? Int == 329_500_000)
        #expect(json.standardOutput.hasPrefix(RecentOutput.json(for: .sample(id: 4)).serialized + "\n"))
    }

    @Test func aFailingBrokerExitsWith1() async {
        let run = await runBrokerCtl(
            ["now"], broker: FakeBroker(nowPlaying: .failure(.busFailure(name: "x.Failed", message: "no"))))
        #expect(run.exitCode == 1)
        #expect(run.standardError == "broker-ctl: x.Failed: no\n")
    }
}
