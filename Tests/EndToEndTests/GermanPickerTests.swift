import Foundation
import TestSupport
import Testing

/// The picker in German (issue 36): the broker runs with `LANGUAGE=de LC_ALL=de_DE.UTF-8`, the
/// catalog and the locale compiled by the test, and starts its picker with that environment. The
/// person finds German buttons and the moment's times in the German format, 24-hour, through
/// AT-SPI, and Teilen shares as Share does.
@Suite(.serialized, .timeLimit(.minutes(3))) struct GermanPickerTests {
    @Test("AT-SPI finds Teilen and Abbrechen, the German explanation and the moment's line with German times and plural")
    func pickerInGerman() async throws {
        let german = try TranslatedLocale(language: "de", locale: "de_DE")
        let rig = try await PickerRig(brokerEnvironment: german.environment)
        let reason = "Musik für den Eintrag von heute"
        let app = try rig.pickingApp(reason: reason)
        let window = "Gehörtes@" + reason
        _ = try rig.drive(window, ["expect:Teilen, was Sie gehört haben", "control:Abbrechen", "press:Weiter"])

        // The broker's English line, "Mezzanine — Massive Attack · 13:05–13:24 · 4 tracks", as the
        // picker words it in German: the music's words as they are, the count in German.
        let english = try #require(rig.moment.summary)
        #expect(english.hasSuffix(" · 4 tracks"))
        let germanLine = english.replacingOccurrences(of: " · 4 tracks", with: " · 4 Titel")
        let momentButton = rig.moment.title + ", " + germanLine
        let times = try #require(germanLine.split(separator: " · ").dropFirst().first.map(String.init))
        #expect(times.wholeMatch(of: /(1[0-9]|2[0-3]):[0-5][0-9]–(1[0-9]|2[0-3]):[0-5][0-9]/) != nil,
                "the rig's afternoon, on the 24-hour clock German uses: \(times)")

        let shown = try rig.drive(window, ["control:\(momentButton)", "roles"])
        for name in ["Teilen", "Abbrechen", "Empfohlen", "Zuletzt gehört", momentButton] {
            #expect(shown.split(separator: "\n").contains { $0.hasSuffix("\t" + name) }, "\(name) not among:\n\(shown)")
        }
        for english in ["Share", "Cancel", "Recommended", "Recent"] {
            #expect(!shown.split(separator: "\n").contains { $0.hasSuffix("\t" + english) }, "\(english) still English:\n\(shown)")
        }
        _ = try rig.drive(window, ["press:\(momentButton)", "press:Teilen", "gone"])
        let (code, results) = try PickerRig.response(of: app)
        #expect(code == 0)
        #expect(results.assets == rig.album.map(\.id))
    }
}
