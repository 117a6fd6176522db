@testable import Localization
import Testing

/// Where the catalogs are read from, and the English the programs fall back to. What a catalog
/// makes of the words is checked through the programs themselves, in their own processes
/// (Tests/EndToEndTests/FrenchBrokerCtlTests.swift, GermanPickerTests.swift): changing this
/// process's locale would change it for every test running beside these.
@Suite struct LocalizationSetupTests {
    @Test("the catalogs are in share/locale beside the executable's bin/, whatever the prefix")
    func besideTheExecutable() {
        #expect(Localization.directory(environment: [:], executable: "/usr/bin/broker-ctl") == "/usr/share/locale")
        #expect(Localization.directory(environment: [:], executable: "/opt/mb/bin/media-broker") == "/opt/mb/share/locale")
        #expect(Localization.directory(environment: [:], executable: "/broker-ctl") == "/share/locale")
        #expect(Localization.directory(environment: [:], executable: nil) == "/usr/share/locale")
    }

    @Test("MEDIA_BROKER_LOCALEDIR overrides it; an empty one does not")
    func override() {
        #expect(Localization.directory(environment: ["MEDIA_BROKER_LOCALEDIR": "/tmp/mo"], executable: "/usr/bin/x") == "/tmp/mo")
        #expect(Localization.directory(environment: ["MEDIA_BROKER_LOCALEDIR": ""], executable: "/usr/bin/x") == "/usr/share/locale")
    }

    @Test("without a catalog the English is the text, its placeholders filled and its plural chosen by the count")
    func english() {
        #expect(localized("Share Listening with {app}", ["app": "Diary"]) == "Share Listening with Diary")
        #expect(localizedPlural("{count} track", "{count} tracks", count: 1) == "1 track")
        #expect(localizedPlural("{count} track", "{count} tracks", count: 0) == "0 tracks")
        #expect(localizedPlural("{count} track by {artist}", "{count} tracks by {artist}", count: 4, ["artist": "Björk"])
            == "4 tracks by Björk")
        #expect(localizedInContext("verb", "Open") == "Open")
    }
}
