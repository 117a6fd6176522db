import Testing
@testable import broker_ctl

@Suite struct HelpTests {
    @Test func everySubcommandIsListedInTheGlobalHelp() {
        for subcommand in BrokerCtl.allSubcommands {
            #expect(HelpText.global.contains("\n  \(subcommand.name) "), "\(subcommand.name)")
            #expect(HelpText.global.contains(subcommand.summary))
        }
        for option in BrokerCtl.globalOptions {
            #expect(HelpText.global.contains(option.longSpelling))
        }
    }

    @Test(arguments: BrokerCtl.allSubcommands.map { $0.name })
    func everySubcommandsHelpShowsItsUsageAndEveryOption(_ name: String) throws {
        let subcommand = try #require(BrokerCtl.subcommand(named: name))
        let help = HelpText.forSubcommand(subcommand)
        #expect(help.hasPrefix(subcommand.summary + "\n\nUsage: broker-ctl \(name)"))
        #expect(help.contains("Usage: \(subcommand.usage)\n"))
        for option in subcommand.options + [.help] {
            #expect(help.contains(option.synopsis), "\(option.longSpelling) missing from \(name) --help")
            #expect(help.contains(option.help))
        }
        for argument in subcommand.arguments {
            #expect(help.contains(argument.name))
        }
    }

    @Test func theUsageLinesAreTheOnesTheBriefPromises() {
        #expect(RecentCommand.usage == "broker-ctl recent [--limit N] [--since WHEN] [--until WHEN] [--app ID] [--json]")
        #expect(StatusCommand.usage == "broker-ctl status [--json]")
        #expect(HelpCommand.usage == "broker-ctl help [SUBCOMMAND]")
    }

    @Test func recentHelpExplainsWhen() {
        let help = HelpText.forSubcommand(RecentCommand.self)
        for example in ["2026-11-29T14:05", "2h", "3d", "today", "yesterday", "local"] {
            #expect(help.contains(example))
        }
    }

    @Test func optionNamesAreExposedForTheManPageAndCompletion() {
        #expect(RecentCommand.optionNames == ["--limit", "--since", "--until", "--app", "--json", "--help", "-h"])
        #expect(StatusCommand.optionNames == ["--json", "--help", "-h"])
        #expect(BrokerCtl.allSubcommands.map { $0.name } == ["recent", "status", "help"])
    }

    @Test func subcommandNamesAndOptionsAreUnique() {
        let names = BrokerCtl.allSubcommands.map { $0.name }
        #expect(Set(names).count == names.count)
        for subcommand in BrokerCtl.allSubcommands {
            #expect(Set(subcommand.optionNames).count == subcommand.optionNames.count, "\(subcommand.name)")
        }
    }

    @Test func helpAndVersionPrintToStandardOutputAndSucceed() async {
        for words in [[], ["--help"], ["-h"], ["help"], ["help", "recent"], ["recent", "--help"], ["status", "-h"]] {
            let run = await runBrokerCtl(words)
            #expect(run.exitCode == 0, "\(words)")
            #expect(run.standardError.isEmpty)
            #expect(!run.standardOutput.isEmpty)
        }
        #expect(await runBrokerCtl(["recent", "--help"]).standardOutput == HelpText.forSubcommand(RecentCommand.self))
        #expect(await runBrokerCtl(["help", "status"]).standardOutput == HelpText.forSubcommand(StatusCommand.self))
        #expect(await runBrokerCtl([]).standardOutput == HelpText.global)
    }

    @Test func versionPrintsTheVersionAlone() async {
        let run = await runBrokerCtl(["--version"])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "0.1.0\n")
        #expect(run.standardError.isEmpty)
    }

    @Test func helpNeverConnectsToTheBroker() async {
        let run = await runBrokerCtl(["recent", "--help"], connectionError: .brokerNotRunning)
        #expect(run.exitCode == 0)
    }
}
