import Foundation
import TestSupport
import Testing

/// Issue 36 §3, swept rather than sampled: in German, no name the picker or the settings window
/// shows — on their pages and in the settings window's dialogs — reads as an English message the
/// German catalog translates. Names are what AT-SPI reads out (`roles`), so a label left unmarked,
/// or marked and built from English pieces, shows here as the English it still is. The command
/// lines' help and mistakes, in German and in French, hold neither such English nor a line that
/// reads as English, which catches a text no catalog knows because nobody marked it.
@Suite(.serialized, .timeLimit(.minutes(3))) struct UntranslatedWordsTests {
    static let catalog = Result { CatalogFile(try SourceTree.read("po/de.po")) }

    /// `english` in German as the window shows it, from the catalog the programs read.
    static func german(_ english: String) throws -> String {
        try #require(try catalog.get().shownTranslation(of: english), "po/de.po translates '\(english)'")
    }

    /// Fails with each English name `roles` printed.
    static func expectGerman(_ roles: String, where place: String) throws {
        let names = roles.split(separator: "\n").compactMap { $0.split(separator: "\t", maxSplits: 1).last.map(String.init) }
        #expect(names.count > 3, "\(place) shows names: \(roles)")
        let english = try catalog.get().untranslated(among: names)
        #expect(english.isEmpty, "\(place) shows English: \(english.map { "'\($0.name)' (\($0.english))" }.joined(separator: ", "))")
    }

    @Test("the picker's pages show no English the catalog translates")
    func picker() async throws {
        let german = try TranslatedLocale(language: "de", locale: "de_DE")
        let rig = try await PickerRig(brokerEnvironment: german.environment)
        let reason = "Musik für den Eintrag von heute"
        let app = try rig.pickingApp(reason: reason)
        let window = try Self.german(PickerRig.pickerTitle) + "@" + reason
        try Self.expectGerman(try rig.drive(window, ["roles"]), where: "the picker's introduction")
        try Self.expectGerman(try rig.drive(window, ["press:" + Self.german("Continue"), "expect:" + Self.german("Recommended"), "roles"]), where: "the picker's moments")
        _ = try rig.drive(window, ["press:" + Self.german("Cancel"), "gone"])
        #expect(try PickerRig.response(of: app).code == 1)
    }

    @Test("the settings window and its dialogs show no English the catalog translates")
    func settingsWindow() async throws {
        let german = try TranslatedLocale(language: "de", locale: "de_DE")
        let rig = try await PickerRig(brokerEnvironment: german.environment)
        let settings = try ChildProcess.launch(
            try BuiltProducts.path(of: "media-broker-picker"), arguments: ["--settings"],
            environment: rig.bus.environment.merging(rig.display.environment) { $1 }.merging(german.environment) { $1 })
        defer { settings.signal(SIGTERM) }
        let title = try Self.german(SettingsWindowTests.title), cancel = try Self.german("Cancel")
        // Read once the listens have loaded: their rows' Edit buttons speak German too.
        let editTeardrop = try Self.german("Edit {title}").replacingOccurrences(of: "{title}", with: "Teardrop")
        try Self.expectGerman(try rig.drive(title, ["control:" + editTeardrop, "roles"]), where: "the settings window")

        _ = try rig.drive(title, ["toggle:" + Self.german("Pause recording")])
        let howLong = "@" + (try Self.german("Nothing is recorded until the pause ends; a listen playing now is dropped."))
        try Self.expectGerman(try rig.drive(howLong, ["roles"]), where: "the pause dialog")
        _ = try rig.drive(howLong, ["press:" + cancel, "gone"])

        _ = try rig.drive(title, ["press:" + Self.german("Change…")])
        let newApps = "@" + (try Self.german("An app you have not switched on or off yet, the first time it plays."))
        try Self.expectGerman(try rig.drive(newApps, ["roles"]), where: "the new-apps dialog")
        _ = try rig.drive(newApps, ["press:" + cancel, "gone"])

        _ = try rig.drive(title, ["press:" + Self.german("Delete…")])
        let question = "@" + (try Self.german("Every listen MediaBroker kept, and its art, is deleted. Apps that already received listens keep them."))
        try Self.expectGerman(try rig.drive(question, ["roles"]), where: "the delete question")
        _ = try rig.drive(question, ["press:" + cancel, "gone"])
    }

    /// English's commonest words, which neither German nor French has.
    static let englishWords: Set<Substring> = ["the", "and", "of", "is", "are", "with", "for", "you", "your", "not", "by", "from",
                                                "that", "this", "when", "which", "its", "it", "be", "to", "has", "have", "was"]

    /// The lines of `output` that read as English — two or more of ``englishWords`` — left unmarked,
    /// which no catalog knows. Example command lines (`broker-ctl …`), options (`--on-this-day`)
    /// and placeholders in capitals (`WHEN`) are the same in every language, so they do not count.
    static func englishLines(_ output: String) -> [Substring] {
        output.split(separator: "\n").filter { line in
            let words = line.split(separator: " ").filter { !$0.hasPrefix("-") && $0.contains(where: \.isLowercase) }
                .flatMap { $0.split(whereSeparator: { !$0.isLetter }) }.map { Substring($0.lowercased()) }
            return !line.contains("broker-ctl ") && Set(words.filter(englishWords.contains)).count >= 2
        }
    }

    @Test("broker-ctl's help, each subcommand's help and usage errors, and the other programs' --help show no English, in German or French",
          arguments: ["de", "fr"])
    func commandLines(language: String) throws {
        let translated = try TranslatedLocale(language: language, locale: language == "de" ? "de_DE" : "fr_FR")
        let catalog = CatalogFile(try SourceTree.read("po/\(language).po"))
        func run(_ program: String, _ arguments: [String]) throws -> String {
            let run = try ChildProcess.run(try BuiltProducts.path(of: program), arguments: arguments, environment: translated.environment)
            return run.standardOutput + run.standardError
        }
        let overview = try run("broker-ctl", ["--help"])
        // A subcommand's line in the overview: two spaces, its name, the columns' gap.
        let subcommands = overview.split(separator: "\n").compactMap { $0.wholeMatch(of: #/  ([a-z][a-z-]+)   .*/#).map { String($0.1) } }
        #expect(subcommands.count > 20 && subcommands.contains("purge"), "\(overview)")
        #expect(Self.englishLines("  Delete listens for good: of one app, from a time range, or all.\n  Alle Wiedergaben löschen.\n"
                                  + "  --on-this-day WHEN   Momente am selben Datum, --since/--until WHEN oder --all") == [
            "  Delete listens for good: of one app, from a time range, or all."], "the rule finds English and leaves German, options and WHEN")
        var outputs = [("broker-ctl --help", overview)]
        for name in subcommands {
            outputs.append(("broker-ctl help \(name)", try run("broker-ctl", ["help", name])))
            outputs.append(("broker-ctl \(name) --no-such-option", try run("broker-ctl", [name, "--no-such-option"])))
        }
        let mistakes = [["recent", "--since", "soonish"], ["recent", "--since", "2026-13-01"], ["recent", "--limit", "0"], ["purge"],
                        ["purge", "--all", "--app", "x"], ["donate", "--app", "notes"], ["donate", "--app", "notes", "--title", "T", "--length", "-1"],
                        ["pause", "--for", "soon"], ["opt-out"], ["edit"], ["retention", "-3"], ["suggest", "--at", "25:00"], ["no-such-subcommand"]]
        for arguments in mistakes { outputs.append(("broker-ctl " + arguments.joined(separator: " "), try run("broker-ctl", arguments))) }
        outputs.append(("media-broker --help", try run("media-broker", ["--help"])))
        outputs.append(("media-broker --no-such-option", try run("media-broker", ["--no-such-option"])))
        outputs.append(("media-broker-picker --help", try run("media-broker-picker", ["--help"])))
        for (command, output) in outputs {
            let english = catalog.englishPassages(in: output) + Self.englishLines(output).map(String.init)
            #expect(english.isEmpty, "\(command) in \(language) shows English: \(english)\n\(output)")
        }
    }
}
