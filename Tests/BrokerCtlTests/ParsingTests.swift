import Foundation
import Testing
@testable import broker_ctl

@Suite struct ParsingTests {
    @Test func recentWithoutOptionsAsksForFiftyOfEverything() throws {
        #expect(try parse(["recent"], as: RecentCommand.self) == RecentCommand())
    }

    @Test func everyRecentOptionInSpaceSeparatedForm() throws {
        let recent = try parse(
            ["recent", "--limit", "5", "--since", "2h", "--until", "now", "--app", "mpv", "--json"],
            as: RecentCommand.self)
        #expect(
            recent
                == RecentCommand(
                    limit: 5, since: fixedNow.addingTimeInterval(-7200), until: fixedNow, appID: "mpv",
                    output: .json))
    }

    @Test func everyRecentOptionInEqualsForm() throws {
        let spaced = try parse(
            ["recent", "--limit", "7", "--since", "2026-11-28", "--until", "2026-11-29T10:00Z", "--app", "vlc"],
            as: RecentCommand.self)
        let joined = try parse(
            ["recent", "--limit=7", "--since=2026-11-28", "--until=2026-11-29T10:00Z", "--app=vlc"],
            as: RecentCommand.self)
        #expect(joined == spaced)
        #expect(joined.since == instant("2026-11-28T00:00:00Z"))
        #expect(joined.until == instant("2026-11-29T10:00:00Z"))
    }

    @Test func optionsMayComeInAnyOrderAndTheLastRepeatWins() throws {
        let recent = try parse(["recent", "--json", "--limit", "3", "--limit=9"], as: RecentCommand.self)
        #expect(recent == RecentCommand(limit: 9, output: .json))
    }

    @Test func anEqualsSignInsideAValueIsKept() throws {
        #expect(try parse(["donate", "--app", "mpv", "--title=a=b"], as: DonateCommand.self).donation.title == "a=b")
    }

    @Test("an app id is checked by the contract's one rule before anything is sent (issue 32, item 9)", arguments: [
        ["recent", "--app=a=b"], ["opt-out", "x\nreader=allowed:1:-:org.evil.App"], ["allow", "org.example App"], ["forget", ".hidden"],
        ["donate", "--app", "a/b", "--title", "T"],
    ])
    func anAppIdOutsideTheRuleIsAUsageError(_ words: [String]) {
        #expect(throws: UsageError.self) { try parse(words) }
    }

    @Test(arguments: ["1", "1000", "50"])
    func limitsWithinTheContractsBoundsAreAccepted(_ limit: String) throws {
        #expect(try parse(["recent", "--limit", limit], as: RecentCommand.self).limit == Int(limit))
    }

    @Test(arguments: ["0", "1001", "-1", "five", "", "2.5", "99999999999999999999"])
    func limitsOutsideTheContractsBoundsAreUsageErrors(_ limit: String) {
        let error = usageError(["recent", "--limit=\(limit)"])
        #expect(error?.message == "--limit must be a whole number from 1 to 1000, not '\(limit)'")
        #expect(error?.subcommandName == "recent")
    }

    @Test func sinceMustBeEarlierThanUntil() {
        #expect(usageError(["recent", "--since", "1h", "--until", "2h"])?.message == "--since must be earlier than --until")
    }

    @Test func anInvalidTimeNamesTheOptionAndTheFormsExpected() {
        #expect(
            usageError(["recent", "--since", "3x"])?.message
                == "--since: invalid time '3x': expected ISO-8601 like 2026-11-29T14:05 or a duration like 2h, 3d")
    }

    @Test func anEmptyAppIDIsAUsageError() {
        #expect(usageError(["recent", "--app="])?.message == "--app needs an app id, such as mpv")
    }

    @Test func unknownOptionIsAUsageError() {
        #expect(usageError(["recent", "--limt", "5"]) == UsageError("unknown option '--limt'", subcommand: "recent"))
        #expect(usageError(["status", "-x"]) == UsageError("unknown option '-x'", subcommand: "status"))
    }

    @Test func missingValueIsAUsageError() {
        #expect(usageError(["recent", "--limit"]) == UsageError("missing value for '--limit N'", subcommand: "recent"))
        #expect(usageError(["recent", "--since", "--json"])?.message == "missing value for '--since WHEN'")
    }

    @Test func aFlagGivenAValueIsAUsageError() {
        #expect(usageError(["status", "--json=yes"])?.message == "'--json' does not take a value")
    }

    @Test func extraArgumentsAreUsageErrors() {
        #expect(usageError(["recent", "mpv"]) == UsageError("unexpected argument 'mpv'", subcommand: "recent"))
        #expect(usageError(["status", "now"])?.message == "unexpected argument 'now'")
        #expect(usageError(["help", "recent", "status"])?.message == "unexpected argument 'status'")
        #expect(usageError(["--version", "recent"]) == UsageError("unexpected argument 'recent'"))
    }

    @Test func afterADoubleDashEverythingIsAnArgument() {
        #expect(usageError(["recent", "--", "--json"])?.message == "unexpected argument '--json'")
    }

    @Test func unknownSubcommandIsAUsageErrorOfBrokerCtlItself() {
        #expect(usageError(["recnet"]) == UsageError("unknown subcommand 'recnet'"))
        #expect(usageError(["--verbose"]) == UsageError("unknown option '--verbose'"))
        #expect(usageError(["help", "recnet"]) == UsageError("unknown subcommand 'recnet'", subcommand: "help"))
    }

    @Test func statusTakesJSON() throws {
        #expect(try parse(["status"], as: StatusCommand.self) == StatusCommand())
        #expect(try parse(["status", "--json"], as: StatusCommand.self) == StatusCommand(printsJSON: true))
    }

    @Test func versionIsItsOwnCommand() throws {
        guard case .showVersion = try parse(["--version"]) else {
            Issue.record("--version did not parse as showVersion")
            return
        }
    }

    @Test(arguments: [
        ([], nil), (["--help"], nil), (["-h"], nil), (["help"], nil),
        (["help", "recent"], "recent"), (["--help", "status"], "status"),
        (["recent", "--help"], "recent"), (["recent", "-h"], "recent"), (["status", "--help"], "status"),
        (["help", "--help"], "help"),
    ] as [([String], String?)])
    func everyWayOfAskingForHelp(_ words: [String], topic: String?) throws {
        #expect(try parse(words, as: HelpCommand.self) == HelpCommand(topic: topic))
    }

    @Test func helpWinsOverOtherMistakesOnTheLine() throws {
        #expect(try parse(["recent", "--limit", "0", "--bogus", "--help"], as: HelpCommand.self).topic == "recent")
    }

    @Test func helpAfterADoubleDashIsAnArgument() {
        #expect(usageError(["recent", "--", "--help"])?.message == "unexpected argument '--help'")
    }
}
