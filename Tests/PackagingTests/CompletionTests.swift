// Shell completion: the bash function offers the right words where a person presses Tab, runs
// `broker-ctl apps --ids` safely for app ids, and both scripts list exactly the subcommands and
// options of broker-ctl's parser.

import Foundation
import Testing
import TestSupport
@testable import broker_ctl

/// Runs `_broker_ctl` from completions/broker-ctl.bash in a fresh `bash --norc`, as bash would on
/// Tab with the command line split into `words` (the last is the word being completed), and
/// returns COMPREPLY and anything printed on stderr.
struct BashCompletion {
    /// Directories put in front of PATH (for a stand-in `broker-ctl`).
    var path: [String] = []
    /// Shell code run after sourcing the script, before completing.
    var setUp = ""

    static let driver = """
        source "$1" || exit 99
        eval "$2"
        shift 2
        COMP_WORDS=("$@")
        COMP_CWORD=$(($# - 1))
        COMP_LINE="$*"
        COMP_POINT=${#COMP_LINE}
        _broker_ctl
        if ((${#COMPREPLY[@]})); then printf '%s\\n' "${COMPREPLY[@]}"; fi
        """

    func complete(_ words: String...) throws -> (offered: [String], errors: String) {
        try complete(words)
    }

    func complete(_ words: [String]) throws -> (offered: [String], errors: String) {
        var environment: [String: String] = [:]
        if !path.isEmpty {
            environment["PATH"] = (path + [ChildProcess.baseEnvironment["PATH"] ?? "/usr/bin:/bin"]).joined(separator: ":")
        }
        let run = try ChildProcess.run(
            "bash",
            arguments: ["--norc", "--noprofile", "-c", Self.driver, "bash", SourceTree.path(CompletionScripts.bash), setUp]
                + words,
            environment: environment, timeout: .seconds(20))
        guard run.status == .exited(0) else {
            throw SourceTreeError("completing \(words) \(run.status)\n\(run.standardError)")
        }
        return (run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init), run.standardError)
    }
}

/// A stand-in `broker-ctl` in a directory of its own, for what completion runs.
struct FakeBrokerCtl {
    let directory: TemporaryDirectory

    init(script: String) throws {
        directory = try TemporaryDirectory(prefix: "fake-broker-ctl")
        let file = directory.appending("broker-ctl")
        try ("#!/bin/sh\n" + script + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file)
    }
}

@Suite struct CompletionTests {
    static let subcommandNames = BrokerCtl.allSubcommands.map { $0.name }

    // MARK: What Tab offers

    @Test func offersEverySubcommandAfterTheProgramName() throws {
        let result = try BashCompletion().complete("broker-ctl", "")
        #expect(result.offered.sorted() == Self.subcommandNames.sorted())
        #expect(result.errors.isEmpty, "\(result.errors)")
    }

    @Test func completesAPrefixOfASubcommand() throws {
        let result = try BashCompletion().complete("broker-ctl", "re")
        #expect(result.offered.sorted() == Self.subcommandNames.filter { $0.hasPrefix("re") }.sorted())
        #expect(result.offered.contains("recent"))
    }

    @Test func offersTheGlobalOptionsForADash() throws {
        let result = try BashCompletion().complete("broker-ctl", "-")
        #expect(result.offered.sorted() == BrokerCtl.globalOptions.map(\.longSpelling).sorted())
    }

    @Test func offersRecentsOptions() throws {
        let result = try BashCompletion().complete("broker-ctl", "recent", "--")
        #expect(result.offered.sorted() == ["--app", "--format", "--help", "--json", "--limit", "--no-art", "--since", "--until"])
    }

    @Test(arguments: BrokerCtl.allSubcommands.map { $0.name })
    func offersEachSubcommandsOptions(_ name: String) throws {
        let subcommand = try #require(BrokerCtl.subcommand(named: name))
        let result = try BashCompletion().complete("broker-ctl", name, "--")
        #expect(result.offered.sorted() == (subcommand.options.map(\.longSpelling) + ["--help"]).sorted())
    }

    @Test func countsAnOptionsValueAsPartOfTheOption() throws {
        // After `--limit 5` the next word is an option again, not a value of --limit.
        let result = try BashCompletion().complete("broker-ctl", "recent", "--limit", "5", "--j")
        #expect(result.offered == ["--json"])
        let nothingForN = try BashCompletion().complete("broker-ctl", "recent", "--limit", "")
        #expect(nothingForN.offered.isEmpty)
    }

    @Test func offersTimeWordsForWhen() throws {
        #expect(try BashCompletion().complete("broker-ctl", "recent", "--since", "").offered == ["now", "today", "yesterday"])
        // `--until=y`, split at '=' as bash does by default, and unsplit.
        #expect(try BashCompletion().complete("broker-ctl", "recent", "--until", "=", "y").offered == ["yesterday"])
        #expect(try BashCompletion().complete("broker-ctl", "recent", "--until=t").offered == ["--until=today"])
    }

    @Test func offersDayWordsForADayAndTheJournalFormats() throws {
        #expect(try BashCompletion().complete("broker-ctl", "day", "").offered == ["today", "yesterday"])
        #expect(try BashCompletion().complete("broker-ctl", "day", "--format", "").offered == ["markdown", "text", "json"])
        #expect(try BashCompletion().complete("broker-ctl", "moments", "--format=m").offered == ["--format=markdown"])
    }

    @Test func offersSubcommandsToHelp() throws {
        let result = try BashCompletion().complete("broker-ctl", "help", "")
        #expect(result.offered.sorted() == Self.subcommandNames.sorted())
        #expect(try BashCompletion().complete("broker-ctl", "help", "st").offered == ["status"])
    }

    @Test func offersNothingForAnUnknownSubcommand() throws {
        let result = try BashCompletion().complete("broker-ctl", "no-such-subcommand", "")
        #expect(result.offered.isEmpty)
        #expect(result.errors.isEmpty)
    }

    /// A fixed list of values (`--format=json|listenbrainz`) offers exactly those words. No
    /// subcommand has one yet (`export --format` will), so this checks the mechanism with a spec
    /// of its own; the test below checks the real one once `export` exists.
    @Test func offersTheWordsOfAFixedValueList() throws {
        let completion = BashCompletion(
            setUp: "_broker_ctl_spec() { printf '%s\\n' 'export --since=WHEN --format=json|listenbrainz --app=ID'; }")
        #expect(try completion.complete("broker-ctl", "export", "--format", "").offered == ["json", "listenbrainz"])
        #expect(try completion.complete("broker-ctl", "export", "--format", "=", "l").offered == ["listenbrainz"])
        #expect(try completion.complete("broker-ctl", "export", "--format=j").offered == ["--format=json"])
        #expect(try completion.complete("broker-ctl", "export", "--since", "today", "--format", "").offered == ["json", "listenbrainz"])
    }

    @Test(.enabled(if: BrokerCtl.subcommand(named: "export") != nil, "broker-ctl has no export subcommand yet"))
    func offersExportFormats() throws {
        #expect(try BashCompletion().complete("broker-ctl", "export", "--format", "").offered == ["json", "listenbrainz"])
    }

    // MARK: App ids from the broker

    @Test func offersTheAppIdsBrokerCtlPrintsWithoutRunningThem() throws {
        let marker = try TemporaryDirectory(prefix: "completion-marker")
        let touched = marker.appending("touched")
        // An app id comes from a player: completion must not expand it.
        let fake = try FakeBrokerCtl(script: """
            [ "$1 $2" = "apps --ids" ] || exit 64
            printf '%s\\n' mpv vlc '$(touch \(touched))' '*'
            """)
        // The stand-in answers at once, but a loaded test machine may take longer than the second
        // a person waits to start it.
        let completion = BashCompletion(path: [fake.directory.path], setUp: "BROKER_CTL_COMPLETION_TIMEOUT=20")
        let all = try completion.complete("broker-ctl", "recent", "--app", "")
        #expect(all.offered == ["mpv", "vlc", "$(touch \(touched))", "*"])
        #expect(try completion.complete("broker-ctl", "recent", "--app", "v").offered == ["vlc"])
        #expect(try completion.complete("broker-ctl", "recent", "--app=m").offered == ["--app=mpv"])
        #expect(!FileManager.default.fileExists(atPath: touched), "completion ran a command substitution from an app id")
    }

    @Test func offersNoAppIdsAndPrintsNothingWhenBrokerCtlFails() throws {
        // The real broker-ctl: today `apps` is a usage error; with no bus it is a failure.
        let builtDirectory = URL(fileURLWithPath: try BuiltProducts.path(of: "broker-ctl")).deletingLastPathComponent().path
        let result = try BashCompletion(path: [builtDirectory]).complete("broker-ctl", "recent", "--app", "")
        #expect(result.offered.isEmpty)
        #expect(result.errors.isEmpty, "completion printed: \(result.errors)")
    }

    @Test func givesUpOnASlowBrokerCtlWithinSeconds() throws {
        let fake = try FakeBrokerCtl(script: "exec sleep 30")
        let clock = ContinuousClock()
        let started = clock.now
        let result = try BashCompletion(path: [fake.directory.path]).complete("broker-ctl", "recent", "--app", "")
        let elapsed = clock.now - started
        #expect(result.offered.isEmpty)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(elapsed < .seconds(5), "completion waited \(elapsed) for a hanging broker-ctl (it should give up after 1 s)")
    }

    // MARK: Drift

    /// Compares what a script declares for each subcommand with the parser, both ways, saying
    /// where (`place`, e.g. "completions/broker-ctl.bash, _broker_ctl_spec") and what to write.
    static func compare(
        _ entries: [CompletionEntry], with expected: (any Subcommand.Type) -> CompletionEntry,
        place: String, suggestion: (any Subcommand.Type) -> String
    ) {
        for subcommand in BrokerCtl.allSubcommands {
            let wanted = expected(subcommand)
            guard let entry = entries.first(where: { $0.name == subcommand.name }) else {
                Issue.record("\(place): nothing for subcommand '\(subcommand.name)'. Add, in the order of BrokerCtl.allSubcommands:\n\(suggestion(subcommand))")
                continue
            }
            #expect(
                entry == wanted,
                "\(place), '\(subcommand.name)': differs from the parser\n  script: \(entry)\n  parser: \(wanted)\nIt should read (a value list like json|listenbrainz may stand for a placeholder):\n\(suggestion(subcommand))")
        }
        for entry in entries where BrokerCtl.subcommand(named: entry.name) == nil {
            Issue.record("\(place): '\(entry.name)' names a subcommand the parser does not have")
        }
    }

    @Test func theBashScriptListsExactlyTheParsersSubcommandsAndOptions() throws {
        let entries = try CompletionScripts.bashEntries()
        let place = "\(CompletionScripts.bash), _broker_ctl_spec"
        Self.compare(entries, with: CompletionEntry.init, place: place, suggestion: CompletionEntry.bashLine)
        #expect(entries.map(\.name) == Self.subcommandNames, "\(place): order the lines as BrokerCtl.allSubcommands")
    }

    @Test func theZshScriptListsExactlyTheParsersSubcommandsAndOptions() throws {
        let (listed, branches) = try CompletionScripts.zshEntries()
        #expect(
            listed == Self.subcommandNames,
            "\(CompletionScripts.zsh), _broker-ctl_subcommands: lists \(listed), the parser has \(Self.subcommandNames) (add 'name:summary' lines in that order)")
        Self.compare(
            branches,
            with: { subcommand in
                var entry = CompletionEntry(subcommand)
                entry.positionals = []  // zsh's positional specs are not compared
                return entry
            },
            place: "\(CompletionScripts.zsh), case $words[1]", suggestion: CompletionEntry.zshSpecs)
    }

    // MARK: The scripts themselves

    @Test func theZshScriptParses() throws {
        let run = try ChildProcess.run("zsh", arguments: ["-n", SourceTree.path(CompletionScripts.zsh)])
        #expect(run.status == .exited(0) && run.standardError.isEmpty, "zsh -n \(CompletionScripts.zsh): \(run.status)\n\(run.standardError)")
    }

    @Test func theBashScriptIsShellcheckClean() throws {
        let run = try ChildProcess.run(
            "shellcheck", arguments: [CompletionScripts.bash], workingDirectory: SourceTree.root)
        #expect(run.status == .exited(0), "shellcheck \(CompletionScripts.bash): \(run.status)\n\(run.standardOutput)\(run.standardError)")
    }
}
