import Testing
@testable import MediaBroker

@Suite("Desktop entries: parsing and localized names")
struct DesktopEntryTests {
    private func parse(_ text: String, locale: String? = nil) -> DesktopEntry? {
        DesktopEntry(parsing: Array(text.utf8), locale: locale.flatMap(DesktopLocale.init))
    }

    @Test func readsTheKeysAppIdentityNeeds() throws {
        let entry = try #require(parse("""
            [Desktop Entry]
            Type=Application
            Name=mpv Media Player
            Icon=mpv
            StartupWMClass=mpv
            Exec=mpv --player-operation-mode=pseudo-gui -- %U
            NoDisplay=true
            """))
        #expect(entry.type == "Application" && entry.isApplication)
        #expect(entry.name == "mpv Media Player" && entry.localizedName == "mpv Media Player")
        #expect(entry.icon == "mpv" && entry.startupWMClass == "mpv")
        #expect(entry.exec == "mpv --player-operation-mode=pseudo-gui -- %U")
        #expect(entry.noDisplay && !entry.hidden)
    }

    @Test func onlyTheDesktopEntryGroupCounts() throws {
        let entry = try #require(parse("""
            Name=Before any group
            [Desktop Action new-window]
            Name=New Window
            Icon=window
            [Desktop Entry]
            Name=Player
            Hidden=true
            [X-Other]
            Icon=other
            """))
        #expect(entry.name == "Player" && entry.icon == nil && entry.hidden)
        #expect(parse("[Desktop Action x]\nName=Only an action\n") == nil)
        #expect(parse("") == nil)
    }

    @Test func escapesAreDecoded() throws {
        let entry = try #require(parse(#"""
            [Desktop Entry]
            Name=A\sB\tC\nD\rE\\F\qG
            """#))
        #expect(entry.name == "A B\tC\nD\rE\\F\\qG")
    }

    @Test func commentsBlankAndMalformedLinesAreSkipped() throws {
        let text = "# comment\r\n\r\n[Desktop Entry]\r\n  # indented comment\r\nno equals sign\r\n=no key\r\n"
            + "Bad Key=x\r\nName[unclosed=x\r\n[broken group\r\nName = Spaced \r\nName=second wins not\r\nIcon=\u{FF}\u{FE}\r\n"
        var bytes = Array(text.utf8)
        bytes.append(contentsOf: [0xFF, 0xC3, 0x0A, 0x00]) // invalid UTF-8 and a NUL on a line of its own
        let entry = try #require(DesktopEntry(parsing: bytes, locale: nil))
        #expect(entry.name == "Spaced")
        #expect(entry.icon == "\u{FF}\u{FE}")
    }

    @Test func booleansAndTypes() throws {
        #expect(try #require(parse("[Desktop Entry]\nNoDisplay=1\nHidden=yes\n")).noDisplay)
        #expect(try #require(parse("[Desktop Entry]\nHidden=yes\n")).hidden == false)
        #expect(try #require(parse("[Desktop Entry]\nType=Link\n")).isApplication == false)
    }

    @Test(arguments: [
        ("sr_RS.UTF-8@latin", "sr_RS@latin"), ("sr_RS", "sr_RS"), ("sr_ME@latin", "sr@latin"), ("sr_ME.UTF-8", "sr"),
        ("de_AT.UTF-8", "untranslated"), ("C", "untranslated"), ("POSIX", "untranslated"), ("", "untranslated"),
    ])
    func localizedNameFollowsTheSpecsMatchingOrder(locale: String, expected: String) throws {
        let text = """
            [Desktop Entry]
            Name=untranslated
            Name[sr]=sr
            Name[sr@latin]=sr@latin
            Name[sr_RS]=sr_RS
            Name[sr_RS@latin]=sr_RS@latin
            """
        #expect(try #require(parse(text, locale: locale)).localizedName == expected)
        #expect(try #require(parse(text, locale: locale)).name == "untranslated")
    }

    @Test func localeComesFromLCAllThenLCMessagesThenLang() {
        #expect(DesktopLocale(environment: ["LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE", "LANG": "es_ES"])?.language == "fr")
        #expect(DesktopLocale(environment: ["LC_ALL": "", "LC_MESSAGES": "de_DE", "LANG": "es_ES"])?.language == "de")
        #expect(DesktopLocale(environment: ["LANG": "pt_BR.UTF-8"]) == DesktopLocale("pt_BR"))
        #expect(DesktopLocale(environment: ["LANG": "C.UTF-8"]) == nil)
        #expect(DesktopLocale(environment: [:]) == nil)
        #expect(DesktopLocale("sr_RS.UTF-8@latin")?.candidates == ["sr_RS@latin", "sr_RS", "sr@latin", "sr"])
    }

    @Test func listsSplitAtUnescapedSeparators() {
        #expect(KeyFile.list(#"a;b\;c;;d\s;"#, separator: ";") == ["a", "b;c", "d"])
        #expect(KeyFile.list("16x16/apps, 32x32/apps,scalable/apps", separator: ",") == ["16x16/apps", "32x32/apps", "scalable/apps"])
    }

    @Test func theFirstOfARepeatedKeyOrGroupWins() throws {
        let entry = try #require(parse("[Desktop Entry]\nName=first\nName=second\n[Desktop Entry]\nIcon=late\n"))
        #expect(entry.name == "first" && entry.icon == nil)
    }
}
