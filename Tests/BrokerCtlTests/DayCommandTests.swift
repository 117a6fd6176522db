import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

/// `broker-ctl day [DATE]`: one listening day (04:00 to 04:00 local time) for a daily note.
@Suite struct DayCommandTests {
    /// The day `words` parse to in `zone`, as its date.
    func day(_ words: [String], in zone: TimeZone = utc) throws -> String {
        try parse(["day"] + words, as: DayCommand.self, timeZone: zone).day.isoText
    }

    @Test func dateIsTodayYesterdayAnISODateOrTheDayHoldingAWhen() throws {
        // fixedNow is 2026-11-29 14:05 UTC.
        #expect(try day([]) == "2026-11-29")
        #expect(try day(["today"]) == "2026-11-29")
        #expect(try day(["Yesterday"]) == "2026-11-28")
        #expect(try day(["2026-12-02"]) == "2026-12-02")
        #expect(try day(["3d"]) == "2026-11-26")
        #expect(try day(["2026-12-02T01:30"]) == "2026-12-01")
        #expect(try day(["2026-12-02T04:00"]) == "2026-12-02")
    }

    @Test func beforeFourInTheMorningTodayIsStillTheDayBefore() throws {
        // In Auckland fixedNow is 2026-11-30 03:05: the night of the 29th goes on.
        #expect(try day(["today"], in: DiaryFixtures.auckland) == "2026-11-29")
        #expect(try day(["yesterday"], in: DiaryFixtures.auckland) == "2026-11-28")
        #expect(try day(["2026-11-30"], in: DiaryFixtures.auckland) == "2026-11-30")
        // In Los Angeles it is 2026-11-29 06:05.
        #expect(try day(["today"], in: DiaryFixtures.losAngeles) == "2026-11-29")
    }

    @Test func theFormatIsTextUnlessAsked() throws {
        #expect(try parse(["day"], as: DayCommand.self).output == .text)
        #expect(try parse(["day", "--format", "markdown", "--no-art"], as: DayCommand.self).output == OutputStyle(format: .markdown, showsArt: false))
        #expect(try parse(["day", "yesterday", "--format=json"], as: DayCommand.self).output == .json)
    }

    @Test(arguments: [["tomorrow"], ["2026-13-01"], ["soon"], ["--format", "html"], ["--format", "json", "--no-art"], ["today", "extra"], ["--json"]])
    func aDateOrFormatItCannotReadIsAUsageError(_ words: [String]) {
        #expect(usageError(["day"] + words) != nil, "\(words)")
    }

    @Test func asksTheBrokerForTheMomentsThatBeganFromFourToFourLocalTime() async {
        let broker = FakeBroker()
        _ = await runBrokerCtl(["day", "2026-12-02"], broker: broker, timeZone: DiaryFixtures.losAngeles)
        #expect(broker.momentRequests == [
            FakeBroker.MomentsRequest(
                since: instant("2026-12-02T04:00:00-08:00"), until: instant("2026-12-03T04:00:00-08:00"), limit: 200, before: nil)
        ])
    }

    @Test func aDayOfADaylightSavingChangeStillRunsFromFourToFour() async {
        let broker = FakeBroker()
        // Auckland's clocks went forward at 02:00 on 2026-09-27: that day has 23 hours.
        _ = await runBrokerCtl(["day", "2026-09-27"], broker: broker, timeZone: DiaryFixtures.auckland)
        #expect(broker.momentRequests.first?.since == instant("2026-09-27T04:00:00+13:00"))
        #expect(broker.momentRequests.first?.until == instant("2026-09-28T04:00:00+13:00"))
        _ = await runBrokerCtl(["day", "2026-09-26"], broker: broker, timeZone: DiaryFixtures.auckland)
        #expect(broker.momentRequests.last?.since == instant("2026-09-26T04:00:00+12:00"))
    }

    @Test func printsOnlyThatLocalDaysMomentsInLosAngeles() async {
        let run = await runBrokerCtl(
            ["day", "2026-12-02", "--format", "markdown"], broker: DiaryFixtures.nearMidnightBroker(), timeZone: DiaryFixtures.losAngeles)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == """

            ## 2026-12-02

            ### Afternoon · 15:30–15:35

            - 15:30 Afternoon track — Massive Attack · Mezzanine · mpv

            ### Evening · 18:30–18:35

            - 18:30 Evening track — Massive Attack · Mezzanine · mpv

            """)
    }

    @Test func printsOnlyThatLocalDaysMomentsInAuckland() async {
        let run = await runBrokerCtl(["day", "2026-12-02"], broker: DiaryFixtures.nearMidnightBroker(), timeZone: DiaryFixtures.auckland)
        #expect(run.standardOutput == """
            2026-12-02

            Dawn · 00:30–00:35
              00:30 Dawn track — Massive Attack · Mezzanine · mpv

            """)
    }

    @Test func jsonIsTheDaysMomentsAsMomentsJSONPrintsThem() async {
        let day = await runBrokerCtl(
            ["day", "2026-12-03", "--format", "json"], broker: DiaryFixtures.nearMidnightBroker(), timeZone: DiaryFixtures.auckland)
        let moments = await runBrokerCtl(
            ["moments", "--json", "--since", "2026-12-03T04:00"], broker: DiaryFixtures.nearMidnightBroker(), timeZone: DiaryFixtures.auckland)
        #expect(day.standardOutput.split(separator: "\n").count == 2)
        #expect(day.standardOutput == moments.standardOutput)
    }

    @Test func anEmptyDayPrintsNothingSaysSoOnStandardErrorAndSucceeds() async {
        for format in ["markdown", "text"] {
            let run = await runBrokerCtl(["day", "2026-11-01", "--format", format], broker: DiaryFixtures.nearMidnightBroker())
            #expect(run.exitCode == 0 && run.standardOutput.isEmpty)
            #expect(run.standardError == "No moments on 2026-11-01.\n")
        }
        let json = await runBrokerCtl(["day", "2026-11-01", "--format", "json"], broker: DiaryFixtures.nearMidnightBroker())
        #expect(json.exitCode == 0 && json.standardOutput.isEmpty && json.standardError.isEmpty)
    }

    @Test func readsEveryPageOfABusyDay() async {
        let listens = (1...450).map { DiaryFixtures.listen(Int64($0), "2026-11-29T05:00:00Z") }
        // Newest first, as the broker answers; all began at once, so ids order them.
        let moments = listens.reversed().map { DiaryFixtures.moment("Moment \($0.id)", of: [$0]) }
        let broker = FakeBroker(media: .success(listens), moments: moments)
        let run = await runBrokerCtl(["day", "--format", "text"], broker: broker)
        #expect(broker.momentRequests.map(\.before) == [nil, "251", "51"])
        #expect(run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("Moment ") }.count == 450)
    }

    @Test func aBrokerFailureFailsTheCommand() async {
        let run = await runBrokerCtl(["day"], broker: FakeBroker(failures: ["moments": .busFailure(name: "org.example.Error", message: "gone")]))
        #expect(run.exitCode == 1 && run.standardOutput.isEmpty)
    }
}
