import Foundation
import TestSupport
import Testing

/// broker-ctl in French (issue 36): `LANGUAGE=fr LC_ALL=fr_FR.UTF-8`, with the catalog and the
/// locale compiled by the test. Its words are French, its dates are written the French way
/// (day/month/year, 24-hour), and its errors too; `--json` stays as it is for scripts.
@Suite(.serialized) struct FrenchBrokerCtlTests {
    @Test("recent prints French headings and a French date; an error, the help and a moment's title are French; --json is unchanged")
    func recentInFrench() throws {
        let french = try TranslatedLocale(language: "fr", locale: "fr_FR")
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0"])
        let environment = bus.environment.merging(french.environment) { $1 }.merging(["TZ": "UTC"]) { $1 }
        func ctl(_ arguments: [String], _ environment: [String: String]) throws -> (status: ChildProcess.ExitStatus, standardOutput: String, standardError: String) {
            try ChildProcess.run(try BuiltProducts.path(of: "broker-ctl"), arguments: arguments, environment: environment)
        }

        let donated = try ctl(["donate", "--app", "notes", "--title", "Teardrop", "--artist", "Massive Attack",
                               "--started", "2026-11-29T21:05:00Z", "--length", "200"], environment)
        #expect(donated.status == .exited(0), "\(donated.standardError)")

        let recent = try ctl(["recent"], environment)
        #expect(recent.status == .exited(0), "\(recent.standardError)")
        let lines = recent.standardOutput.split(separator: "\n")
        #expect(lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["QUAND", "TITRE", "ARTISTE", "ALBUM", "APPLICATION"],
                "\(recent.standardOutput)")
        #expect(lines.dropFirst().first?.hasPrefix("29/11/2026 21:05  Teardrop") == true, "\(recent.standardOutput)")

        let english = try ctl(["recent"], bus.environment.merging(["TZ": "UTC", "LC_ALL": "C.UTF-8"]) { $1 })
        #expect(english.standardOutput.hasPrefix("WHEN"), "without LANGUAGE the words stay English")
        #expect(english.standardOutput.contains("2026-11-29 21:05  Teardrop"), "and the C locale's dates ISO")

        let json = try ctl(["recent", "--json"], environment)
        #expect(json.standardOutput.contains(#""started_iso":"2026-11-29T21:05:00Z""#), "\(json.standardOutput)")

        let mistaken = try ctl(["recent", "--limit", "0"], environment)
        #expect(mistaken.status == .exited(64))
        #expect(mistaken.standardError.hasPrefix("Erreur\u{a0}: "), "\(mistaken.standardError)")
        #expect(mistaken.standardError.contains("\nUtilisation\u{a0}: broker-ctl recent"), "\(mistaken.standardError)")
        #expect(mistaken.standardError.contains("Voir 'broker-ctl recent --help'."), "\(mistaken.standardError)")

        // A moment of no artist's music is titled by its part of the day and its count, in French.
        let memo = try ctl(["donate", "--app", "notes", "--title", "Memo", "--started", "2026-11-27T10:00:00Z", "--length", "60"], environment)
        #expect(memo.status == .exited(0), "\(memo.standardError)")
        let moments = try ctl(["moments", "--since", "2026-11-20"], environment).standardOutput
        #expect(moments.split(separator: "\n").contains { $0.hasPrefix("Écoute ") && $0.hasSuffix(" · 1 morceau") }, "\(moments)")
        #expect(moments.contains("27/11/2026"), "\(moments)")
        // A diary for a journal keeps its fixed forms (ISO day, 24-hour clock) and speaks French.
        let diary = try ctl(["day", "2026-11-27", "--format", "markdown"], environment).standardOutput
        #expect(diary.contains("\n## 2026-11-27\n") && diary.contains("\n### Écoute du matin · 1 morceau · 10:00–10:01\n"), "\(diary)")

        // At a terminal the question offers the French answers, and "o" (oui) confirms.
        let atTerminal = try ChildProcess.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("answer-at-terminal.py"), "o",
                                                                             try BuiltProducts.path(of: "broker-ctl"), "purge", "--app", "notes"],
                                              environment: environment)
        #expect(atTerminal.status == .exited(0), "\(atTerminal.standardOutput)")
        #expect(atTerminal.standardOutput.contains("Supprimer définitivement toutes les écoutes de notes")
                && atTerminal.standardOutput.contains("[o/N] o"), "\(atTerminal.standardOutput)")
        #expect(try ctl(["recent"], environment).standardOutput.split(separator: "\n").count == 1, "only the headings are left")

        let help = try ctl(["--help"], environment).standardOutput
        #expect(help.contains("\n\nSous-commandes\u{a0}:\n  recent ") && help.contains("Afficher ce que vous avez écouté, le plus récent d’abord."), "\(help)")
        #expect(try ctl(["media", "off"], environment).standardOutput == "L’enregistrement des médias est maintenant désactivé.\n")
        #expect(try ctl(["now"], environment).standardOutput == "Rien n’est en cours de lecture.\n")
        try broker.stop()
        let unreachable = try ctl(["status"], environment)
        #expect(unreachable.status == .exited(1))
        #expect(unreachable.standardError.hasPrefix("broker-ctl\u{a0}: "), "\(unreachable.standardError)")
    }
}
