import Foundation
import TestSupport
import Testing

/// Issue 36 §3, swept rather than sampled: in German, no name the picker or the settings window
/// shows — on their pages and in the settings window's dialogs — reads as an English message the
/// German catalog translates. Names are what AT-SPI reads out (`roles`), so a label left unmarked,
/// or marked and built from English pieces, shows here as the English it still is.
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
        try Self.expectGerman(try rig.drive(title, ["roles"]), where: "the settings window")

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
}
