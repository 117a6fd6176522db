import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

/// `broker-ctl moments`: its options, a block per moment with its tracks, and JSON for scripts.
@Suite struct MomentsTests {
    static let evening = Moment(
        id: "41", title: "Mezzanine — Massive Attack", summary: "Mezzanine — Massive Attack · 13:00–13:11 · 2 tracks",
        started: instant("2026-11-29T13:00:00Z"), ended: instant("2026-11-29T13:11:00Z"), listened: .seconds(659),
        count: 2, assetIDs: [1, 2], artists: ["Massive Attack"], album: "Mezzanine", appIDs: ["mpv"],
        titleRule: .album, artist: "Massive Attack", artistCount: 1, partOfDay: "afternoon")

    static let tracks = [GenericMedia.sample(id: 1), GenericMedia.sample(id: 2, started: "2026-11-29T13:05:30Z")]

    @Test func withoutOptionsAsksForTwentyWithTheBrokersGap() throws {
        #expect(try parse(["moments"], as: MomentsCommand.self) == MomentsCommand())
    }

    @Test func everyOption() throws {
        let moments = try parse(["moments", "--limit", "5", "--since", "2h", "--gap", "1h30m", "--app", "mpv", "--json"], as: MomentsCommand.self)
        #expect(moments == MomentsCommand(limit: 5, since: fixedNow.addingTimeInterval(-7200), gap: 5400, appID: "mpv", output: .json))
    }

    @Test func onThisDayAsksTheBrokerForTheDateInEarlierYearsAndTakesNoSpan() async throws {
        #expect(try parse(["moments", "--on-this-day", "today"], as: MomentsCommand.self).onThisDay != nil)
        for words in [["--since", "1w"], ["--until", "today"]] {
            #expect(usageError(["moments", "--on-this-day", "today"] + words) != nil, "\(words)")
        }
        let broker = FakeBroker(moments: [Self.evening])
        let run = await runBrokerCtl(["moments", "--on-this-day", "2026-11-29"], broker: broker)
        #expect(run.exitCode == 0, "\(run.standardError)")
        let asked = try #require(broker.momentRequests.first)
        #expect(asked.onThisDay != nil && asked.since == nil && asked.until == nil)
    }

    @Test func aGapOutsideOneMinuteToSixHoursOrNotADurationIsAUsageError() {
        for words in [["--gap", "30s"], ["--gap", "7h"], ["--gap", "soon"], ["--gap", "15"], ["--limit", "0"], ["--limit", "201"]] {
            #expect(usageError(["moments"] + words) != nil, "\(words)")
        }
    }

    @Test func oneBlockPerMomentWithItsTracks() async {
        let run = await runBrokerCtl(["moments"], broker: FakeBroker(media: .success(Self.tracks), moments: [Self.evening]))
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(run.standardOutput == """
            Mezzanine — Massive Attack
              2026-11-29 13:00–13:11 · 2 tracks · mpv
                13:00  Teardrop — Massive Attack
                13:05  Teardrop — Massive Attack

            """)
    }

    @Test func nothingInRangeSaysSo() async {
        let run = await runBrokerCtl(["moments"], broker: FakeBroker())
        #expect(run.exitCode == 0 && run.standardOutput == MomentsOutput.emptyMessage)
    }

    @Test func jsonHasTheMomentsKeysAndItsTracks() async throws {
        let run = await runBrokerCtl(["moments", "--json"], broker: FakeBroker(media: .success(Self.tracks), moments: [Self.evening]))
        let line = try #require(run.standardOutput.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["id"] as? String == "41" && object["title_rule"] as? String == "album" && object["count"] as? Int == 2)
        #expect(object["asset_ids"] as? [Int] == [1, 2])
        #expect((object["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [1, 2])
    }

    @Test func aBrokerWithoutMomentsFailsWithItsError() async {
        let run = await runBrokerCtl(["moments"], broker: FakeBroker(failures: ["moments": .busFailure(
            name: "org.freedesktop.DBus.Error.UnknownMethod", message: "No such method 'Moments'")]))
        #expect(run.exitCode != 0 && run.standardError.contains("Moments"))
    }
}
