import Testing
@testable import BrokerCore
import Clocks

/// The suggestion settings (issue 35) as the person gives and the store keeps them: a time of day,
/// the journal app chosen, and the day last suggested; journal apps' URL templates are checked
/// before anything is launched with them; the ids a suggestion hands out reveal nothing.
@Suite("Suggestion settings, URL templates and ids")
struct SuggestionSettingsTests {
    @Test(arguments: [("21:00", 75_600, "21:00"), ("7:05", 25_500, "07:05"), ("23:59:59", 86_399, "23:59:59"), ("00:00:00", 0, "00:00")])
    func timesOfDayParse(_ text: String, seconds: Int, shown: String) {
        #expect(TimeOfDay(parsing: text)?.seconds == seconds)
        #expect(TimeOfDay(parsing: text)?.text == shown)
    }

    @Test(arguments: ["24:00", "21:60", "21", "21:0", "21:00:60", "-1:00", "21:00:00:00", "", "ab:cd", "123:00", " 21:00"])
    func badTimesAreRefused(_ text: String) {
        #expect(TimeOfDay(parsing: text) == nil)
    }

    @Test("the settings go to the store and back; off writes nothing")
    func settingsRoundTrip() throws {
        #expect(SuggestionSettings().encoded == "")
        let on = SuggestionSettings(time: TimeOfDay(parsing: "21:00"), journalApp: "org.example.Journal.desktop", lastDay: 42)
        #expect(on.encoded == "at=21:00\njournal_app=org.example.Journal.desktop\nlast_day=42\n")
        #expect(try SuggestionSettings(decoding: on.encoded) == on)
        #expect(throws: PrivacySettings.DecodingError(line: 2, reason: "journal_app must be a desktop-file id")) {
            try SuggestionSettings(decoding: "at=21:00\njournal_app=../../bin/sh\n")
        }
        #expect(throws: PrivacySettings.DecodingError.self) { try SuggestionSettings(decoding: "sound=loud\n") }
    }

    @Test(arguments: ["org.example.Journal", "org.example.Journal.desktop", "obsidian.desktop", "md.obsidian.Obsidian"])
    func desktopIDs(_ id: String) {
        #expect(SuggestionSettings.isDesktopID(id))
    }

    @Test(arguments: ["", "../x.desktop", "/usr/share/applications/x.desktop", "a b", "x\ny", ".hidden", "-flag", String(repeating: "a", count: 256)])
    func notDesktopIDs(_ id: String) {
        #expect(!SuggestionSettings.isDesktopID(id))
    }

    @Test("a template with {id} once makes the URL, the id percent-encoded")
    func templateMakesTheURL() throws {
        let template = try SuggestionURLTemplate("examplejournal://suggestion/{id}?from=media-broker")
        #expect(template.url(for: "0123abcd") == "examplejournal://suggestion/0123abcd?from=media-broker")
        #expect(template.url(for: "a b/c&d") == "examplejournal://suggestion/a%20b%2Fc%26d?from=media-broker")
    }

    @Test(arguments: [
        ("examplejournal://suggestion/", SuggestionURLTemplate.Problem.placeholderCount(0)),
        ("examplejournal://{id}/{id}", .placeholderCount(2)),
        ("examplejournal://suggestion/{id} --evil", .character(" ")),
        ("examplejournal://suggestion/{id}'; rm -rf ~; '", .character("'")),
        ("examplejournal://\"{id}\"", .character("\"")),
        ("examplejournal://sugg\u{e9}stion/{id}", .character("\u{e9}")),
        ("examplejournal://s/{id}\nExec=sh", .character("\n")),
        ("examplejournal://s/{id}`id`", .character("`")),
        ("/usr/bin/journal {id}", .character(" ")),
        ("{id}", .noScheme),
        ("1journal:{id}", .noScheme),
        ("//suggestion/{id}", .noScheme),
    ] as [(String, SuggestionURLTemplate.Problem)])
    func badTemplatesAreRefused(_ text: String, problem: SuggestionURLTemplate.Problem) {
        #expect(throws: problem) { try SuggestionURLTemplate(text) }
    }

    @Test("the ids name their moment; the oldest beyond the capacity is forgotten; only well-formed ids are looked up")
    func tokens() {
        var tokens = SuggestionTokens()
        for index in 0...SuggestionTokens.capacity {
            tokens.remember("token\(index)", for: .init(momentID: "\(index * 10)", started: Int64(index), ended: Int64(index) + 1))
        }
        #expect(tokens.moment(for: "token0") == nil)
        #expect(tokens.moment(for: "token1") == .init(momentID: "10", started: 1, ended: 2))
        #expect(tokens.moment(for: "token\(SuggestionTokens.capacity)")?.momentID == "320")
        #expect(SuggestionTokens.isWellFormed("0123456789abcdef0123456789abcdef"))
        #expect(!SuggestionTokens.isWellFormed("0123456789ABCDEF0123456789abcdef") && !SuggestionTokens.isWellFormed("42"))
    }
}
