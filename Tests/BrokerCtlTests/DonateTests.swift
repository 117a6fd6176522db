import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

@Suite struct DonateTests {
    @Test func theRequiredOptionsMakeADonationStartingNow() throws {
        let donate = try parse(["donate", "--app", "org.example.Radio", "--title", "Teardrop"], as: DonateCommand.self)
        #expect(donate == DonateCommand(donation: Donation(appID: "org.example.Radio", title: "Teardrop")))
    }

    @Test func everyOptionInBothForms() throws {
        let spaced = try parse(
            ["donate", "--app", "shell", "--title", "Duet", "--artist", "A", "--artist", "B", "--album", "Songs",
             "--started", "10m", "--length", "215.5", "--json"],
            as: DonateCommand.self)
        let joined = try parse(
            ["donate", "--app=shell", "--title=Duet", "--artist=A", "--artist=B", "--album=Songs", "--started=10m",
             "--length=215.5", "--json"],
            as: DonateCommand.self)
        #expect(spaced == joined)
        #expect(
            spaced
                == DonateCommand(
                    donation: Donation(
                        appID: "shell", title: "Duet", artists: ["A", "B"], album: "Songs",
                        started: fixedNow.addingTimeInterval(-600), length: .milliseconds(215_500)),
                    printsJSON: true))
    }

    @Test func artistsKeepTheirOrderAndAreAllKept() throws {
        let donate = try parse(
            ["donate", "--app", "a", "--title", "t", "--artist", "Zoë", "--artist", "Abe", "--artist", "Zoë"], as: DonateCommand.self)
        #expect(donate.donation.artists == ["Zoë", "Abe", "Zoë"])
    }

    @Test(arguments: [
        (["donate", "--title", "T"], "missing '--app ID'"),
        (["donate", "--app", "mpv"], "missing '--title T'"),
        (["donate", "--app=", "--title", "T"], "--app needs an app id, such as mpv"),
        (["donate", "--app", "mpv", "--title="], "--title cannot be empty"),
        (["donate", "--app", "mpv", "--title", "T", "--artist="], "--artist cannot be empty"),
        (["donate", "--app", "mpv", "--title", "T", "--album="], "--album cannot be empty"),
        (["donate", "--app", "mpv", "--title"], "missing value for '--title T'"),
        (["donate", "--app", "--title", "T"], "missing value for '--app ID'"),
        (["donate", "--app", "mpv", "--title", "T", "--artist"], "missing value for '--artist A'"),
        (["donate", "--app", "mpv", "--title", "T", "--started", "soon"],
         "--started: invalid time 'soon': expected ISO-8601 like 2026-11-29T14:05 or a duration like 2h, 3d"),
        (["donate", "--app", "mpv", "--title", "T", "--started", "2027-01-01"], "--started cannot be in the future"),
        (["donate", "--app", "mpv", "--title", "T", "extra"], "unexpected argument 'extra'"),
    ] as [([String], String)])
    func mistakesAreUsageErrors(_ words: [String], message: String) {
        #expect(usageError(words) == UsageError(message, subcommand: "donate"))
    }

    @Test(arguments: ["0", "-5", "abc", "1e3", "nan", "inf", ".5", "86401", "", "1.2.3"])
    func aLengthMustBeAPositiveNumberOfSeconds(_ length: String) {
        #expect(
            usageError(["donate", "--app", "mpv", "--title", "T", "--length=\(length)"])?.message
                == "--length must be a number of seconds above 0 and at most 86400, not '\(length)'")
    }

    @Test func aDonationReachesTheBrokerAndItsIDIsPrinted() async {
        let broker = FakeBroker(donatedID: 42)
        let run = await runBrokerCtl(["donate", "--app", "shell", "--title", "Duet", "--artist", "A", "--started", "2026-11-29T13:00Z"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "42\n")
        #expect(
            broker.changes == [
                .donate(Donation(appID: "shell", title: "Duet", artists: ["A"], started: instant("2026-11-29T13:00:00Z")))
            ])
    }

    @Test func jsonPrintsTheIDAsAnObject() async throws {
        let run = await runBrokerCtl(["donate", "--app", "a", "--title", "t", "--json"], broker: FakeBroker(donatedID: 7))
        #expect(run.standardOutput == #"{"id":7}"# + "\n")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Int])
        #expect(object == ["id": 7])
    }

    @Test func mediaSwitchedOffExits1AndSaysSo() async {
        let run = await runBrokerCtl(
            ["donate", "--app", "a", "--title", "t"], broker: FakeBroker(failures: ["donate": .mediaDisabled]))
        #expect(run.exitCode == 1)
        #expect(run.standardOutput == "")
        #expect(run.standardError == "broker-ctl: media recording is switched off\n")
    }

    @Test func aRefusedDonationExits1WithTheBrokersReason() async {
        let run = await runBrokerCtl(
            ["donate", "--app", "a", "--title", "t"],
            broker: FakeBroker(failures: ["donate": .invalidArguments("title: longer than 1024 characters")]))
        #expect(run.exitCode == 1)
        #expect(run.standardError == "broker-ctl: invalid arguments: title: longer than 1024 characters\n")
    }
}
