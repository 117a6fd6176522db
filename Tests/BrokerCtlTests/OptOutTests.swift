import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

@Suite struct OptOutTests {
    @Test func parsesOptOutAndOptIn() throws {
        #expect(try parse(["opt-out", "spotify"], as: OptOutCommand.self) == OptOutCommand(.app("spotify")))
        #expect(
            try parse(["opt-out", "--purge", "spotify", "--yes"], as: OptOutCommand.self)
                == OptOutCommand(.app("spotify"), purges: true, assumeYes: true))
        #expect(try parse(["opt-in", "spotify"], as: OptInCommand.self) == OptInCommand(.app("spotify")))
        #expect(try parse(["opt-out", "--site", "WWW.YouTube.com."], as: OptOutCommand.self) == OptOutCommand(.site("youtube.com")))
        #expect(try parse(["opt-in", "--site=bandcamp.com"], as: OptInCommand.self) == OptInCommand(.site("bandcamp.com")))
    }

    @Test func aSiteOptOutKeepsItOutOfEveryBrowserAndPurgeDeletesItsListens() async {
        let broker = FakeBroker(purgeCount: 3)
        let out = await runBrokerCtl(["opt-out", "--site", "youtube.com"], broker: broker)
        #expect(out.standardOutput.hasPrefix("Opted out youtube.com: nothing played on it in a web browser is recorded any more."))
        let purged = await runBrokerCtl(["opt-out", "--site", "youtube.com", "--purge", "--yes"], broker: broker)
        #expect(purged.standardOutput == "Opted out youtube.com and deleted 3 listens.\n")
        let back = await runBrokerCtl(["opt-in", "--site", "youtube.com"], broker: broker)
        #expect(back.standardOutput == "Opted in youtube.com: what web browsers play on it is recorded again.\n")
        #expect(broker.changes == [.setSiteOptedOut("youtube.com", true), .setSiteOptedOut("youtube.com", true), .purge(.site("youtube.com")),
                                   .setSiteOptedOut("youtube.com", false)])
    }

    @Test(arguments: [
        (["opt-out"], "give an app id, such as mpv, or --site SITE", "opt-out"),
        (["opt-out", "mpv", "--site", "a.com"], "give an app id or --site, not both", "opt-out"),
        (["opt-out", "--site", "a b"], "'a b' is no site: give a host name, like youtube.com", "opt-out"),
        (["opt-out", ""], "APP needs an app id, such as mpv", "opt-out"),
        (["opt-out", "a", "b"], "unexpected argument 'b'", "opt-out"),
        (["opt-out", "a", "--yes"], "--yes only applies with --purge", "opt-out"),
        (["opt-out", "a", "--all"], "unknown option '--all'", "opt-out"),
        (["opt-in"], "give an app id, such as mpv, or --site SITE", "opt-in"),
        (["opt-in", "a", "--purge"], "unknown option '--purge'", "opt-in"),
    ] as [([String], String, String)])
    func mistakesAreUsageErrors(_ words: [String], message: String, subcommand: String) {
        #expect(usageError(words) == UsageError(message, subcommand: subcommand))
    }

    @Test func optOutAloneKeepsThePastAndSaysHowToDeleteIt() async {
        let broker = FakeBroker()
        let run = await runBrokerCtl(["opt-out", "spotify"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(
            run.standardOutput
                == "Opted out spotify: nothing of it is recorded or shown any more. 'broker-ctl opt-out spotify --purge' also deletes its past listens.\n")
        #expect(broker.changes == [.setAppOptedOut("spotify", true)])
    }

    @Test func purgeWithYesOptsOutFirstThenDeletes() async {
        let broker = FakeBroker(purgeCount: 12)
        let run = await runBrokerCtl(["opt-out", "spotify", "--purge", "--yes"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "Opted out spotify and deleted 12 listens.\n")
        #expect(broker.changes == [.setAppOptedOut("spotify", true), .purge(.app("spotify"))])
    }

    @Test func purgeOnATerminalAsksFirst() async {
        let yes = FakeBroker(purgeCount: 1)
        let confirmed = await runBrokerCtl(["opt-out", "mpv", "--purge"], broker: yes, keyboard: .terminal(answering: "y"))
        #expect(confirmed.standardError == "Opt out mpv and delete all its listens for good? [y/N] ")
        #expect(confirmed.standardOutput == "Opted out mpv and deleted 1 listen.\n")
        #expect(yes.changes == [.setAppOptedOut("mpv", true), .purge(.app("mpv"))])

        let no = FakeBroker()
        let declined = await runBrokerCtl(["opt-out", "mpv", "--purge"], broker: no, keyboard: .terminal(answering: "n"))
        #expect(declined.exitCode == 1)
        #expect(no.changes.isEmpty, "declining must not even opt out")
    }

    @Test func purgeWithoutATerminalNeedsYes() async {
        let broker = FakeBroker()
        let run = await runBrokerCtl(["opt-out", "mpv", "--purge"], broker: broker)
        #expect(run.exitCode == 64)
        #expect(run.standardError.hasPrefix("Error: standard input is not a terminal, so nobody can confirm; pass --yes"))
        #expect(run.standardError.contains("Usage: broker-ctl opt-out (APP | --site SITE) [--purge [--yes]]\n"))
        #expect(broker.changes.isEmpty)
    }

    @Test func optInAllowsTheAppAndWithdrawsTheOptOut() async {
        let broker = FakeBroker(apps: [AppInfo(appID: "spotify")])
        let run = await runBrokerCtl(["opt-in", "spotify"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "Allowed spotify: it is recorded and shown.\n")
        #expect(broker.changes == [.setAppOptedOut("spotify", false)])
    }

    @Test func optInSaysWhenTheAppOptedItselfOut() async {
        let broker = FakeBroker(apps: [AppInfo(appID: "secret", isOptedOut: true, optedOutBy: .app)])
        let run = await runBrokerCtl(["opt-in", "secret"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput.contains("the app has opted itself out: it stays unrecorded until it opts back in"))
    }

    @Test func failuresExit1() async {
        let broker = FakeBroker(failures: ["setAppOptedOut": .brokerNotRunning])
        #expect(await runBrokerCtl(["opt-out", "mpv"], broker: broker).exitCode == 1)
        #expect(await runBrokerCtl(["opt-in", "mpv"], broker: broker).exitCode == 1)
        let purgeFails = FakeBroker(failures: ["purge": .busFailure(name: "x.Error", message: "disk full")])
        let run = await runBrokerCtl(["opt-out", "mpv", "--purge", "--yes"], broker: purgeFails)
        #expect(run.exitCode == 1)
        #expect(run.standardError == "broker-ctl: x.Error: disk full\n")
        #expect(purgeFails.changes == [.setAppOptedOut("mpv", true)])
    }
}
