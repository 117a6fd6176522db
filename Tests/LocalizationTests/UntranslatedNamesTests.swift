import Testing
import TestSupport

/// The rule UntranslatedWordsTests sweeps the German windows with: which names on screen are
/// English a catalog translates otherwise.
@Suite struct UntranslatedNamesTests {
    static let catalog = CatalogFile("""
        msgid "_Share"
        msgstr "_Teilen"

        msgid "Paused until {time}"
        msgstr "Pausiert bis {time}"

        msgid "{count} track"
        msgid_plural "{count} tracks"
        msgstr[0] "{count} Titel"
        msgstr[1] "{count} Titel"

        msgid "Podcast"
        msgstr "Podcast"

        msgid "{show}: {episode}"
        msgstr "{show} : {episode}"

        msgid "Not yet translated"
        msgstr ""
        """)

    @Test("English a message translates is found — with its placeholders filled, its mnemonic gone, in either plural — and nothing else")
    func findsEnglish() {
        let shown = ["Share", "Teilen", "Paused until 21:00", "Pausiert bis 21:00", "4 tracks", "1 track", "4 Titel", "Podcast",
                     "Mezzanine: Angel", "Not yet translated", "Shared"]
        #expect(Self.catalog.untranslated(among: shown).map(\.name) == ["Share", "Paused until 21:00", "4 tracks", "1 track"])
    }

    @Test("a translation is looked up as it shows, without the mnemonic underscore")
    func shownTranslation() {
        #expect(Self.catalog.shownTranslation(of: "Share") == "Teilen")
        #expect(Self.catalog.shownTranslation(of: "Not yet translated") == nil)
    }
}
