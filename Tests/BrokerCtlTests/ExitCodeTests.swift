import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

@Suite struct ExitCodeTests {
    @Test func aUsageErrorPrintsWhatUsageAndAHintToStandardErrorWith64() async {
        let run = await runBrokerCtl(["recent", "--limit", "0"])
        #expect(run.exitCode == 64)
        #expect(run.standardOutput.isEmpty)
        #expect(
            run.standardError == """
                Error: --limit must be a whole number from 1 to 1000, not '0'
                Usage: broker-ctl recent [--limit N] [--since WHEN] [--until WHEN] [--app ID] [--json | --format markdown|text|json] [--no-art]
                See 'broker-ctl recent --help'.

                """)
    }

    @Test func aUsageErrorOfBrokerCtlItselfShowsItsOwnUsage() async {
        let run = await runBrokerCtl(["frobnicate"])
        #expect(run.exitCode == 64)
        #expect(
            run.standardError == """
                Error: unknown subcommand 'frobnicate'
                Usage: broker-ctl <subcommand> [options]
                See 'broker-ctl --help'.

                """)
    }

    @Test(arguments: [
        ["recent", "--bogus"], ["recent", "--limit"], ["recent", "extra"], ["status", "--json=1"],
        ["recent", "--since", "yesterdayish"], ["help", "nope"], ["--version", "x"], ["-x"],
    ])
    func everyUsageErrorExitsWith64(_ words: [String]) async {
        let run = await runBrokerCtl(words)
        #expect(run.exitCode == 64)
        #expect(run.standardError.hasPrefix("Error: "))
        #expect(run.standardError.contains("\nUsage: broker-ctl "))
        #expect(run.standardOutput.isEmpty)
    }

    @Test func usageErrorsNeverReachTheBroker() async {
        let broker = FakeBroker()
        _ = await runBrokerCtl(["recent", "--limit", "1001"], broker: broker)
        #expect(broker.recentRequests.isEmpty)
    }

    @Test(arguments: [["recent"], ["recent", "--json"], ["status"], ["status", "--json"]])
    func aBrokerThatIsNotRunningExitsWith1AndSaysSo(_ words: [String]) async {
        let run = await runBrokerCtl(words, connectionError: .brokerNotRunning)
        #expect(run.exitCode == 1)
        #expect(run.standardOutput.isEmpty)
        #expect(
            run.standardError
                == "broker-ctl: the media broker is not running (org.mediabroker.MediaBroker1 has no owner)\n")
    }

    @Test func aFailingCallExitsWith1WithTheBusError() async {
        let broker = FakeBroker(
            media: .failure(.busFailure(name: "org.freedesktop.DBus.Error.NoReply", message: "no reply")),
            status: .failure(.busUnavailable("DBUS_SESSION_BUS_ADDRESS is not set")))
        let recent = await runBrokerCtl(["recent"], broker: broker)
        #expect(recent.exitCode == 1)
        #expect(recent.standardError == "broker-ctl: org.freedesktop.DBus.Error.NoReply: no reply\n")
        let status = await runBrokerCtl(["status"], broker: broker)
        #expect(status.exitCode == 1)
        #expect(status.standardError == "broker-ctl: cannot reach the session bus: DBUS_SESSION_BUS_ADDRESS is not set\n")
    }

    @Test func recentPassesTheFilterToTheBroker() async {
        let broker = FakeBroker(media: .success([.sample()]))
        let run = await runBrokerCtl(["recent", "--since=today", "--until", "1h", "--limit=10", "--app", "mpv"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(
            broker.recentRequests == [
                .init(since: instant("2026-11-29T00:00:00Z"), until: fixedNow.addingTimeInterval(-3600), limit: 10,
                      appID: "mpv", before: nil)
            ])
    }

    @Test func recentPrintsATableAndJSONOnRequest() async {
        let broker = FakeBroker(media: .success([.sample()]))
        let table = await runBrokerCtl(["recent"], broker: broker, timeZone: plusTwo)
        #expect(table.standardOutput == RecentOutput.table([.sample()], timeZone: plusTwo, width: 100))
        let json = await runBrokerCtl(["recent", "--json"], broker: broker)
        #expect(json.standardOutput == RecentOutput.jsonLines([.sample()]))
        #expect(broker.recentRequests.map(\.limit) == [50, 50])
    }

    @Test func theTableWidthComesFromCOLUMNSThenTheTerminal() async {
        var media = GenericMedia.sample()
        media.title = String(repeating: "x", count: 200)
        let broker = FakeBroker(media: .success([media]))
        func widest(_ run: Invocation) -> Int {
            run.standardOutput.split(separator: "\n").map(\.terminalColumns).max() ?? 0
        }
        #expect(widest(await runBrokerCtl(["recent"], broker: broker)) == 100)
        #expect(widest(await runBrokerCtl(["recent"], broker: broker, terminalColumns: 72)) == 72)
        #expect(widest(await runBrokerCtl(["recent"], broker: broker, variables: ["COLUMNS": "60"], terminalColumns: 72)) == 60)
        #expect(widest(await runBrokerCtl(["recent"], broker: broker, variables: ["COLUMNS": "junk"])) == 100)
    }

    @Test func statusPrintsWhatTheBrokerSays() async {
        let status = BrokerStatus(version: "0.1.0", assetCount: 5, players: [])
        let run = await runBrokerCtl(["status"], broker: FakeBroker(status: .success(status)))
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == StatusOutput.text(status, timeZone: UTC()))
        let json = await runBrokerCtl(["status", "--json"], broker: FakeBroker(status: .success(status)))
        #expect(json.standardOutput == StatusOutput.json(status))
    }
}
