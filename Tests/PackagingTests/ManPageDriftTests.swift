// The man pages say what the programs accept: every subcommand, option and argument broker-ctl's
// parser knows is in broker-ctl(1), every option `media-broker --help` lists is in media-broker(8),
// neither documents anything the program lacks, and both render without a warning.

import Testing
import TestSupport
@testable import broker_ctl

@Suite struct ManPageDriftTests {
    static let brokerCtlPage = "man/broker-ctl.1"
    static let brokerPage = "man/media-broker.8"

    static func page(_ file: String) throws -> ManPage {
        ManPage(file: file, source: try SourceTree.read(file))
    }

    /// How a subcommand's section would start, for failure messages: paste and fill in.
    static func sectionTemplate(for subcommand: any Subcommand.Type) -> String {
        var lines = [".SS \(subcommand.name)", ".SY \"broker\\-ctl \(ManPage.escaped(subcommand.name))\""]
        lines += subcommand.options.map { option in
            ".OP \(ManPage.escaped(option.longSpelling))" + (option.valuePlaceholder.map { " \($0)" } ?? "")
        }
        lines += subcommand.arguments.map { $0.isOptional ? ".RI [ \($0.name) ]" : ".I \($0.name)" }
        lines += [".YS", ".PP", subcommand.summary]
        lines += subcommand.options.map(entryTemplate)
        lines += subcommand.arguments.map { ".TP\n.I \($0.name)\n\($0.help)" }
        return lines.joined(separator: "\n")
    }

    /// The `.TP` entry for an option, for failure messages.
    static func entryTemplate(for option: OptionSpec) -> String {
        let spellings = ([option.longSpelling] + (option.shortName.map { ["-\($0)"] } ?? [])).map(ManPage.escaped)
        let tag: String
        if let placeholder = option.valuePlaceholder {
            tag = ".BI \(spellings.joined(separator: " \", \" ")) \" \(placeholder)\""
        } else if spellings.count > 1 {
            tag = ".BR \(spellings.joined(separator: " \", \" "))"
        } else {
            tag = ".B \(spellings[0])"
        }
        return ".TP\n\(tag)\n\(option.help)"
    }

    /// Whether the `.TP` tags of `block` document `option`: its long spelling with its value
    /// placeholder (`--limit N`), and its short spelling if it has one.
    static func documents(_ block: ManPage.Block, _ option: OptionSpec) -> Bool {
        block.tags.contains { tag in
            let parts = tag.split(separator: ",").map { $0.trimming(" ") }
            return parts.contains(option.synopsis)
                && (option.shortName.map { parts.contains("-\($0)") } ?? true)
        }
    }

    // MARK: broker-ctl(1)

    @Test(arguments: BrokerCtl.allSubcommands.map { $0.name })
    func everySubcommandHasItsSectionWithItsSynopsis(_ name: String) throws {
        let subcommand = try #require(BrokerCtl.subcommand(named: name))
        let page = try Self.page(Self.brokerCtlPage)
        guard let section = page.subsection(name, of: "SUBCOMMANDS") else {
            Issue.record("""
                \(Self.brokerCtlPage): subcommand '\(name)' (in BrokerCtl.allSubcommands) has no section. \
                Add one under .SH SUBCOMMANDS, in the order of BrokerCtl.allSubcommands, starting:
                \(Self.sectionTemplate(for: subcommand))
                """)
            return
        }
        #expect(
            section.text.hasPrefix(subcommand.usage + " ") || section.text == subcommand.usage,
            """
            \(Self.brokerCtlPage), .SS \(name): the synopsis must read as the parser's usage line
              expected: \(subcommand.usage)
              found:    \(section.text.prefix(subcommand.usage.count + 20))…
            (write it with .SY "broker\\-ctl \(name)", one .OP per option, .YS)
            """)
    }

    @Test(arguments: BrokerCtl.allSubcommands.map { $0.name })
    func everyOptionAndArgumentOfASubcommandHasAnEntryInItsSection(_ name: String) throws {
        let subcommand = try #require(BrokerCtl.subcommand(named: name))
        let page = try Self.page(Self.brokerCtlPage)
        let section = try #require(
            page.subsection(name, of: "SUBCOMMANDS"), "\(Self.brokerCtlPage) has no .SS \(name) (see the test above)")
        for option in subcommand.options where !Self.documents(section, option) {
            Issue.record("""
                \(Self.brokerCtlPage), .SS \(name): option '\(option.synopsis)' of \(subcommand) has no .TP entry. Add:
                \(Self.entryTemplate(for: option))
                """)
        }
        for argument in subcommand.arguments where !section.tags.contains(argument.name) {
            Issue.record("""
                \(Self.brokerCtlPage), .SS \(name): argument \(argument.name) has no .TP entry. Add:
                .TP
                .I \(argument.name)
                \(argument.help)
                """)
        }
        let known = Set(subcommand.optionNames)
        for tag in section.optionTags {
            let spelling = String(tag.prefix { !$0.isWhitespace })
            #expect(
                known.contains(spelling),
                "\(Self.brokerCtlPage), .SS \(name) documents '\(spelling)', which \(subcommand) does not take (it takes \(subcommand.optionNames.joined(separator: " ")))")
        }
    }

    @Test func theSubcommandSectionsAreTheParsersSubcommandsInItsOrder() throws {
        let page = try Self.page(Self.brokerCtlPage)
        let documented = page.subsectionNames(of: "SUBCOMMANDS")
        let expected = BrokerCtl.allSubcommands.map { $0.name }
        for name in documented where !expected.contains(name) {
            Issue.record("\(Self.brokerCtlPage): .SS \(name) under SUBCOMMANDS documents a subcommand the parser does not have (BrokerCtl.allSubcommands: \(expected.joined(separator: ", ")))")
        }
        #expect(
            documented.filter(expected.contains) == expected.filter(documented.contains),
            "\(Self.brokerCtlPage): order the .SS sections as BrokerCtl.allSubcommands: \(expected.joined(separator: ", ")); found \(documented.joined(separator: ", "))")
    }

    @Test func everyGlobalOptionHasAnEntryUnderOPTIONS() throws {
        let page = try Self.page(Self.brokerCtlPage)
        let options = try #require(page.section("OPTIONS"), "\(Self.brokerCtlPage) has no .SH OPTIONS")
        for option in BrokerCtl.globalOptions where !Self.documents(options, option) {
            Issue.record("""
                \(Self.brokerCtlPage), .SH OPTIONS: global option '\(option.synopsis)' has no .TP entry. Add:
                \(Self.entryTemplate(for: option))
                """)
        }
    }

    @Test func brokerCtlPageDocumentsExitStatusesAndWhen() throws {
        let page = try Self.page(Self.brokerCtlPage)
        let exit = try #require(page.section("EXIT STATUS"), "\(Self.brokerCtlPage) has no .SH EXIT STATUS")
        #expect(exit.tags == ["\(ExitCode.success)", "\(ExitCode.failure)", "\(ExitCode.usageError)"])
        let when = try #require(page.section("WHEN"), "\(Self.brokerCtlPage) has no .SH WHEN")
        for example in ["2026-11-29T14:05", "1h30m", "now", "today", "yesterday"] {
            #expect(when.text.contains(example), "\(Self.brokerCtlPage), .SH WHEN does not show \(example)")
        }
    }

    // MARK: media-broker(8)

    /// The options `media-broker --help` lists (`--database`, `-h`, …).
    static func brokerOptions() throws -> (options: [String], usageLine: String) {
        let run = try ChildProcess.run(try BuiltProducts.path(of: "media-broker"), arguments: ["--help"])
        #expect(run.status == .exited(0), "media-broker --help \(run.status): \(run.standardError)")
        let options = Set(optionTokens(in: run.standardOutput))
        let usage = run.standardOutput.split(separator: "\n").first { $0.hasPrefix("Usage:") }
        return (options.sorted(), usage.map(String.init) ?? "")
    }

    /// Words that look like options: `--min-listen`, `-h` (not `-1` or a lone dash).
    static func optionTokens(in text: String) -> [String] {
        text.split(whereSeparator: { " \n,|[]()=".contains($0) }).map(String.init).filter { word in
            let body = word.drop { $0 == "-" }
            return word.hasPrefix("-") && word.count - body.count <= 2 && (body.first?.isLetter ?? false)
        }
    }

    @Test func everyBrokerOptionHasAnEntryUnderOPTIONSAndNoOtherDoes() throws {
        let (options, usage) = try Self.brokerOptions()
        try #require(options.contains("--help") && options.contains("--version"), "media-broker --help lists no options: \(options)")
        let page = try Self.page(Self.brokerPage)
        let section = try #require(page.section("OPTIONS"), "\(Self.brokerPage) has no .SH OPTIONS")
        let documented = Set(section.optionTags.map { String($0.prefix { !$0.isWhitespace }) })
        for option in options where !documented.contains(option) {
            Issue.record("\(Self.brokerPage), .SH OPTIONS: '\(option)' (listed by media-broker --help) has no .TP entry; add .TP, then .B \(ManPage.escaped(option)) (or .BI with its value) and what it does")
        }
        for option in documented where !options.contains(option) {
            Issue.record("\(Self.brokerPage), .SH OPTIONS documents '\(option)', which media-broker --help does not list")
        }
        let synopsis = try #require(page.section("SYNOPSIS")).text
        for option in Self.optionTokens(in: usage) where !synopsis.contains(option) {
            Issue.record("\(Self.brokerPage), .SH SYNOPSIS lacks '\(option)' of the usage line: \(usage)")
        }
    }

    @Test func brokerPageHasEnvironmentFilesSignalsExitStatusAndTheInterface() throws {
        let page = try Self.page(Self.brokerPage)
        let environment = try #require(page.section("ENVIRONMENT"), "\(Self.brokerPage) has no .SH ENVIRONMENT")
        for variable in ["DBUS_SESSION_BUS_ADDRESS", "XDG_DATA_HOME", "HOME", "JOURNAL_STREAM"] {
            #expect(environment.tags.contains(variable), "\(Self.brokerPage), .SH ENVIRONMENT has no .TP entry for \(variable)")
        }
        let exit = try #require(page.section("EXIT STATUS"), "\(Self.brokerPage) has no .SH EXIT STATUS")
        #expect(exit.tags == ["0", "1", "64"], "\(Self.brokerPage), .SH EXIT STATUS: \(exit.tags)")
        let signals = try #require(page.section("SIGNALS"), "\(Self.brokerPage) has no .SH SIGNALS")
        #expect(signals.text.contains("SIGTERM") && signals.text.contains("SIGINT"))
        let files = try #require(page.section("FILES"), "\(Self.brokerPage) has no .SH FILES")
        #expect(files.tags.contains("$XDG_DATA_HOME/media-broker/history.sqlite3"))
        let interface = try #require(page.section("D-BUS INTERFACE"), "\(Self.brokerPage) has no .SH D\\-BUS INTERFACE")
        for member in ["RecentMedia", "NowPlaying", "Status", "MediaAdded", "org.mediabroker.MediaBroker1", "/org/mediabroker/MediaBroker1"] {
            #expect(interface.text.contains(member), "\(Self.brokerPage), .SH D-BUS INTERFACE does not mention \(member)")
        }
    }

    // MARK: Both

    @Test(arguments: [brokerCtlPage, brokerPage])
    func renderWithoutWarnings(_ file: String) throws {
        let run = try ChildProcess.run(
            "groff", arguments: ["-ww", "-man", "-Tutf8", "-z", file], workingDirectory: SourceTree.root)
        #expect(run.status == .exited(0) && run.standardError.isEmpty, "groff -ww -man -Tutf8 -z \(file): \(run.status)\n\(run.standardError)")
    }
}
