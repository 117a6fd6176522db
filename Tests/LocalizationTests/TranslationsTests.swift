import Foundation
@testable import Localization
import Testing
import TestSupport

/// Each language of po/LINGUAS is complete — every message of the template translated, none fuzzy,
/// msgfmt --check content — and keeps the placeholders its English has, so no value goes missing
/// and no `{name}` is printed as it stands.
@Suite struct TranslationsTests {
    static let languages: [String] = (try? SourceTree.read("po/LINGUAS"))?
        .split(separator: "\n").map { String($0.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty } ?? []

    /// What is wrong with `message`'s placeholders: a translation must hold the same `{name}`s as
    /// its English. A plural form may leave out `{count}` ("a year ago" for one), never another.
    static func placeholderProblems(_ message: CatalogFile.Message) -> [String] {
        let english = Placeholders.names(in: message.plural ?? message.id)
        return message.translations.enumerated().compactMap { index, translation in
            var names = Placeholders.names(in: translation)
            var expected = english
            if message.plural != nil, !names.contains("count") { expected.removeAll { $0 == "count" } }
            names = Array(Set(names)).sorted()
            expected = Array(Set(expected)).sorted()
            return names == expected ? nil : "'\(message.id)' form \(index): has \(names), the English \(expected)"
        }
    }

    @Test("po/LINGUAS names German and French, each with its po/LL.po")
    func languagesListed() {
        #expect(Self.languages == ["de", "fr"])
        for language in Self.languages { #expect(FileManager.default.fileExists(atPath: SourceTree.path("po/\(language).po"))) }
    }

    @Test("every message of the template is translated, none fuzzy, and msgfmt --check passes", arguments: languages)
    func complete(language: String) throws {
        let template = CatalogFile(try SourceTree.read("po/media-broker.pot"))
        let catalog = CatalogFile(try SourceTree.read("po/\(language).po"))
        let key = { (message: CatalogFile.Message) in "\(message.context ?? "")\u{4}\(message.id)" }
        #expect(Set(catalog.messages.map(key)) == Set(template.messages.map(key)), "po/\(language).po and the template hold other messages: msgmerge it")
        let run = try ChildProcess.run("msgfmt", arguments: ["--check", "--statistics", "-o", "/dev/null", "po/\(language).po"],
                                       workingDirectory: SourceTree.root)
        #expect(run.status == .exited(0), "\(run.standardError)")
        #expect(run.standardError.trimmingCharacters(in: .whitespacesAndNewlines) == "\(template.messages.count) translated messages.")
        #expect(catalog.messages.allSatisfy { !$0.isFuzzy && $0.translations.allSatisfy { !$0.isEmpty } })
    }

    @Test("each translation holds the placeholders of its English", arguments: languages)
    func placeholdersKept(language: String) throws {
        let catalog = CatalogFile(try SourceTree.read("po/\(language).po"))
        #expect(!catalog.messages.isEmpty)
        let problems = catalog.messages.flatMap(Self.placeholderProblems)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("a placeholder lost, renamed or added is found; {count} left out of a plural form is not")
    func placeholderCheckFails() {
        let catalog = CatalogFile("""
            msgid ""
            msgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

            msgid "Share Listening with {app}"
            msgstr "Gehörtes teilen"

            msgid "Let {app} read"
            msgstr "{ap} lesen lassen"

            msgid "Since {time}"
            msgstr "Seit {time} {app}"

            msgid "On this day a year ago: {moment}"
            msgid_plural "On this day {count} years ago: {moment}"
            msgstr[0] "Heute vor einem Jahr: {moment}"
            msgstr[1] "Heute vor {count} Jahren: {moment}"

            msgid "{count} track"
            msgid_plural "{count} tracks"
            msgstr[0] "{count} Titel"
            msgstr[1] "Titel"
            """)
        #expect(catalog.messages.count == 5)
        #expect(catalog.messages.map { Self.placeholderProblems($0).count } == [1, 1, 1, 0, 0])
    }
}
