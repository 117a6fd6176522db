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
        #expect(
            RecentCommand.usage
                == "broker-ctl recent [--limit N] [--since WHEN] [--until WHEN] [--app ID] [--json | --format markdown|text|json] [--no-art]")
        #expect(
            MomentsCommand.usage
                == "broker-ctl moments [--limit N] [--since WHEN] [--until WHEN | --on-this-day WHEN] [--gap DURATION] [--app ID] [--json | --format markdown|text|json] [--no-art]")
        #expect(DayCommand.usage == "broker-ctl day [--format markdown|text|json] [--no-art] [DATE]")
        #expect(StatusCommand.usage == "broker-ctl status [--json]")
        #expect(HelpCommand.usage == "broker-ctl help [SUBCOMMAND]")
        #expect(NowCommand.usage == "broker-ctl now [--json]")
        #expect(FollowCommand.usage == "broker-ctl follow [--json]")
        #expect(
            DonateCommand.usage
                == "broker-ctl donate --app ID --title T [--artist A]... [--album B] [--started WHEN] [--length SECONDS] [--json]")
        #expect(MediaCommand.usage == "broker-ctl media [--json] [on|off|status]")
        #expect(AppsCommand.usage == "broker-ctl apps [--json | --ids]")
        #expect(OptOutCommand.usage == "broker-ctl opt-out (APP | --site SITE) [--purge [--yes]]")
        #expect(OptInCommand.usage == "broker-ctl opt-in (APP | --site SITE)")
        #expect(PurgeCommand.usage == "broker-ctl purge (--app ID | --since WHEN [--until WHEN] | --until WHEN | --all) [--yes]")
        #expect(RetentionCommand.usage == "broker-ctl retention [--json] [DAYS]")
        #expect(ExportCommand.usage == "broker-ctl export [--since WHEN] [--until WHEN] [--app ID] [--format json|listenbrainz]")
    }

    /// Help, the man page and completion are derived from the declarations; a usage line written
    /// by hand must still name every option, or it has drifted from what the parser accepts.
    @Test(arguments: BrokerCtl.allSubcommands.map { $0.name })
    func everyUsageLineNamesEveryOptionAndArgument(_ name: String) throws {
        let subcommand = try #require(BrokerCtl.subcommand(named: name))
        for option in subcommand.options {
            #expect(subcommand.usage.contains(option.longSpelling), "\(option.longSpelling) missing from \(name)'s usage")
        }
        for argument in subcommand.arguments {
            #expect(subcommand.usage.contains(argument.name), "\(argument.name) missing from \(name)'s usage")
        }
    }

    @Test(arguments: BrokerCtl.allSubcommands.map { $0.name }.filter { $0 != "help" })
    func everySubcommandsHelpShowsAnExample(_ name: String) throws {
        let subcommand = try #require(BrokerCtl.subcommand(named: name))
        let help = HelpText.forSubcommand(subcommand)
        guard name != "recent", name != "status" else { return }
        #expect(help.contains("Example"), "\(name) --help has no example")
        #expect(help.contains("\n  broker-ctl \(name)"), "\(name) --help has no example command line")
    }

    @Test func recentHelpExplainsWhen() {
        let help = HelpText.forSubcommand(RecentCommand.self)
        for example in ["2026-11-29T14:05", "2h", "3d", "today", "yesterday", "local"] {
            #expect(help.contains(example))
        }
    }

    @Test func optionNamesAreExposedForTheManPageAndCompletion() {
        #expect(RecentCommand.optionNames == ["--limit", "--since", "--until", "--app", "--json", "--format", "--no-art", "--help", "-h"])
        #expect(MomentsCommand.optionNames == ["--limit", "--since", "--until", "--on-this-day", "--gap", "--app", "--json", "--format", "--no-art", "--help", "-h"])
        #expect(DayCommand.optionNames == ["--format", "--no-art", "--help", "-h"])
        #expect(StatusCommand.optionNames == ["--json", "--help", "-h"])
        #expect(NowCommand.optionNames == ["--json", "--help", "-h"])
        #expect(FollowCommand.optionNames == ["--json", "--help", "-h"])
        #expect(
            DonateCommand.optionNames
                == ["--app", "--title", "--artist", "--album", "--started", "--length", "--json", "--help", "-h"])
        #expect(MediaCommand.optionNames == ["--json", "--help", "-h"])
        #expect(AppsCommand.optionNames == ["--json", "--ids", "--help", "-h"])
        #expect(OptOutCommand.optionNames == ["--site", "--purge", "--yes", "-y", "--help", "-h"])
        #expect(OptInCommand.optionNames == ["--site", "--help", "-h"])
        #expect(ReadersCommand.optionNames == ["--json", "--ids", "--help", "-h"])
        #expect(AllowCommand.optionNames == ["--help", "-h"])
        #expect(PurgeCommand.optionNames == ["--app", "--since", "--until", "--all", "--yes", "-y", "--help", "-h"])
        #expect(RetentionCommand.optionNames == ["--json", "--help", "-h"])
        #expect(PauseCommand.optionNames == ["--until", "--json", "--help", "-h"])
        #expect(ResumeCommand.optionNames == ["--json", "--help", "-h"])
        #expect(NewAppsCommand.optionNames == ["--json", "--help", "-h"])
        #expect(EditCommand.optionNames == ["--title", "--artist", "--album", "--from-now-on", "--undo", "--json", "--help", "-h"])
        #expect(RulesCommand.optionNames == ["--json", "--ids", "--help", "-h"])
        #expect(SuggestCommand.optionNames == ["--at", "--app", "--no-app", "--json", "--help", "-h"])
        #expect(ExportCommand.optionNames == ["--since", "--until", "--app", "--format", "--help", "-h"])
        #expect(
            BrokerCtl.allSubcommands.map { $0.name } == [
                "recent", "moments", "day", "now", "follow", "status", "donate", "media", "pause", "resume", "apps", "new-apps", "opt-out", "opt-in", "readers",
                "allow", "deny", "forget", "edit", "rules", "suggest", "purge", "retention", "export", "help",
            ])
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

    @Test(arguments: BrokerCtl.allSubcommands.map { $0.name })
    func everySubcommandsHelpWorksWithoutABroker(_ name: String) async throws {
        let subcommand = try #require(BrokerCtl.subcommand(named: name))
        for words in [[name, "--help"], [name, "-h"], ["help", name]] {
            let run = await runBrokerCtl(words, connectionError: .brokerNotRunning)
            #expect(run.exitCode == 0, "\(words)")
            #expect(run.standardOutput == HelpText.forSubcommand(subcommand))
        }
    }

    @Test func helpNeverConnectsToTheBroker() async {
        let run = await runBrokerCtl(["recent", "--help"], connectionError: .brokerNotRunning)
        #expect(run.exitCode == 0)
    }
}
