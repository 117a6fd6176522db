import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

@Suite struct PurgeTests {
    @Test func eachScopeParses() throws {
        #expect(try parse(["purge", "--app", "mpv"], as: PurgeCommand.self) == PurgeCommand(scope: .app("mpv")))
        #expect(try parse(["purge", "--all", "--yes"], as: PurgeCommand.self) == PurgeCommand(scope: .all, assumeYes: true))
        #expect(try parse(["purge", "--all", "-y"], as: PurgeCommand.self) == PurgeCommand(scope: .all, assumeYes: true))
        #expect(
            try parse(["purge", "--since", "2026-11-28", "--until=2026-11-29"], as: PurgeCommand.self)
                == PurgeCommand(scope: .range(since: instant("2026-11-28T00:00:00Z"), until: instant("2026-11-29T00:00:00Z"))))
        #expect(
            try parse(["purge", "--since", "2h"], as: PurgeCommand.self)
                == PurgeCommand(scope: .range(since: fixedNow.addingTimeInterval(-7200), until: nil)))
        #expect(
            try parse(["purge", "--until", "30d"], as: PurgeCommand.self)
                == PurgeCommand(scope: .range(since: nil, until: fixedNow.addingTimeInterval(-30 * 86_400))))
    }

    @Test(arguments: [
        (["purge"], "say what to delete: --app ID, --since/--until WHEN, or --all"),
        (["purge", "--yes"], "say what to delete: --app ID, --since/--until WHEN, or --all"),
        (["purge", "--app", "mpv", "--all"], "give only one of --app, --since/--until and --all"),
        (["purge", "--app", "mpv", "--since", "1h"], "give only one of --app, --since/--until and --all"),
        (["purge", "--until", "1h", "--all"], "give only one of --app, --since/--until and --all"),
        (["purge", "--since", "1h", "--until", "2h"], "--since must be earlier than --until"),
        (["purge", "--app="], "--app needs an app id, such as mpv"),
        (["purge", "--app"], "missing value for '--app ID'"),
        (["purge", "--since"], "missing value for '--since WHEN'"),
        (["purge", "--all=yes"], "'--all' does not take a value"),
        (["purge", "--all", "everything"], "unexpected argument 'everything'"),
    ] as [([String], String)])
    func exactlyOneScopeOrAUsageError(_ words: [String], message: String) {
        #expect(usageError(words) == UsageError(message, subcommand: "purge"))
    }

    @Test func theQuestionSaysWhatGoesInLocalTime() {
        #expect(PurgeCommand.question(for: .app("mpv"), timeZone: utc) == "Delete all listens of mpv for good?")
        #expect(PurgeCommand.question(for: .all, timeZone: utc) == "Delete your whole listening history for good?")
        let since = instant("2026-11-28T00:00:00Z")
        let until = instant("2026-11-29T00:00:00Z")
        #expect(
            PurgeCommand.question(for: .range(since: since, until: until), timeZone: plusTwo)
                == "Delete all listens that began from 2026-11-28 02:00 until 2026-11-29 02:00 (local time) for good?")
        #expect(
            PurgeCommand.question(for: .range(since: since, until: nil), timeZone: utc)
                == "Delete all listens that began at or after 2026-11-28 00:00 (local time) for good?")
        #expect(
            PurgeCommand.question(for: .range(since: nil, until: until), timeZone: utc)
                == "Delete all listens that began before 2026-11-29 00:00 (local time) for good?")
    }

    @Test func withYesItDeletesWithoutAskingAndPrintsTheCount() async {
        let broker = FakeBroker(purgeCount: 42)
        let run = await runBrokerCtl(["purge", "--app", "mpv", "--yes"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "Deleted 42 listens.\n")
        #expect(run.standardError == "")
        #expect(broker.changes == [.purge(.app("mpv"))])
        #expect(await runBrokerCtl(["purge", "--all", "-y"], broker: FakeBroker(purgeCount: 1)).standardOutput == "Deleted 1 listen.\n")
    }

    @Test(arguments: ["y", "Y", "yes", "YES", "  yes  "])
    func onATerminalAYesDeletes(_ answer: String) async {
        let broker = FakeBroker(purgeCount: 3)
        let run = await runBrokerCtl(["purge", "--since", "1h"], broker: broker, keyboard: .terminal(answering: answer))
        #expect(run.exitCode == 0)
        #expect(run.standardError == "Delete all listens that began at or after 2026-11-29 13:05 (local time) for good? [y/N] ")
        #expect(run.standardOutput == "Deleted 3 listens.\n")
        #expect(broker.changes == [.purge(.range(since: fixedNow.addingTimeInterval(-3600), until: nil))])
    }

    @Test(arguments: ["", "n", "no", "N", "yess", "y e s", "maybe"])
    func onATerminalAnythingElseDeletesNothing(_ answer: String) async {
        let broker = FakeBroker(purgeCount: 3)
        let run = await runBrokerCtl(["purge", "--all"], broker: broker, keyboard: .terminal(answering: answer))
        #expect(run.exitCode == 1)
        #expect(run.standardOutput == "")
        #expect(
            run.standardError == "Delete your whole listening history for good? [y/N] broker-ctl: not confirmed; nothing was deleted\n")
        #expect(broker.changes.isEmpty)
    }

    @Test func theEndOfInputIsANo() async {
        let broker = FakeBroker()
        let run = await runBrokerCtl(["purge", "--all"], broker: broker, keyboard: Keyboard(isTerminal: true, answers: []))
        #expect(run.exitCode == 1)
        #expect(run.standardError.hasSuffix("[y/N] \nbroker-ctl: not confirmed; nothing was deleted\n"))
        #expect(broker.changes.isEmpty)
    }

    @Test func withoutATerminalOrYesItRefusesWith64BeforeTouchingTheBroker() async {
        let run = await runBrokerCtl(["purge", "--all"], connectionError: .brokerNotRunning, keyboard: .none)
        #expect(run.exitCode == 64)
        #expect(run.standardOutput == "")
        #expect(
            run.standardError == """
                Error: standard input is not a terminal, so nobody can confirm; pass --yes to delete without asking
                Usage: \(PurgeCommand.usage)
                See 'broker-ctl purge --help'.

                """)
    }

    @Test func confirmationAcceptsOnlyYes() {
        #expect(Confirmation.isYes("y") && Confirmation.isYes(" Yes\t"))
        #expect(!Confirmation.isYes("") && !Confirmation.isYes("ja") && !Confirmation.isYes("y y"))
    }

    @Test func aFailingPurgeExits1() async {
        let run = await runBrokerCtl(
            ["purge", "--all", "--yes"], broker: FakeBroker(failures: ["purge": .invalidArguments("empty filter")]))
        #expect(run.exitCode == 1)
        #expect(run.standardError == "broker-ctl: invalid arguments: empty filter\n")
    }
}
