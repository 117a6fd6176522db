@testable import MediaBroker
import SwiftDBus
import Testing
@testable import BrokerCore
import CoreFixtures

/// Sites in browsers in the players' core (issue 34, §4): a browser's listen keeps its page's
/// site; a listen on an opted-out site is not recorded, while another site in the same browser is.
@Suite("Sites: a browser's listens by the page they played on")
struct PlayersCoreSitesTests {
    /// The browser plays `title` on the page at `url` for 200 s, to its end.
    static func listen(_ harness: PlayersCoreHarness, _ ref: PlayerRef, _ title: String, page url: String) {
        let metadata: [String: DBusValue] = [
            "mpris:trackid": .string("/org/mpris/MediaPlayer2/firefox/\(title.count)"), "xesam:title": .string(title),
            "xesam:artist": .strings(["Artist"]), "mpris:length": .int64(200 * second), "xesam:url": .string(url),
        ]
        harness.answer(ref, ["Metadata": .vardict(metadata), "PlaybackStatus": .string("Playing")])
        harness.advance(by: 200 * second)
        harness.stopPlaying(ref)
    }

    @Test("a browser's listen keeps its page's host as its site, never the path or query; another app's keeps none")
    func siteKept() throws {
        let harness = PlayersCoreHarness()
        let browser = try harness.follow("org.mpris.MediaPlayer2.firefox", as: ":1.5")
        Self.listen(harness, browser, "On Bandcamp", page: "https://artist.bandcamp.com/track/secret?from=me")
        let player = try harness.follow("org.mpris.MediaPlayer2.mpv", as: ":1.6")
        Self.listen(harness, player, "In mpv", page: "https://example.com/a.ogg")
        #expect(harness.recorded.map(\.site) == ["artist.bandcamp.com", nil])
    }

    @Test("a listen on an opted-out site is not recorded, another site in the same browser is; a site opted out mid-listen discards it")
    func siteOptOut() throws {
        let harness = PlayersCoreHarness(privacy: PrivacySettings(optedOutSites: ["youtube.com"]))
        let browser = try harness.follow("org.mpris.MediaPlayer2.firefox", as: ":1.5")
        Self.listen(harness, browser, "Kept Out", page: "https://www.youtube.com/watch?v=1")
        Self.listen(harness, browser, "Kept In", page: "https://bandcamp.com/album")
        #expect(harness.recorded.map(\.title) == ["Kept In"])

        harness.answer(browser, ["Metadata": .vardict(["mpris:trackid": .string("/t/9"), "xesam:title": .string("Mid"),
                                                       "mpris:length": .int64(200 * second), "xesam:url": .string("https://bandcamp.com/x")]),
                                 "PlaybackStatus": .string("Playing")])
        harness.advance(by: 120 * second)
        harness.feed(.privacyChanged(PrivacySettings(optedOutSites: ["youtube.com", "bandcamp.com"])))
        #expect(harness.core.nowPlaying().isEmpty)
        harness.advance(by: 80 * second)
        harness.stopPlaying(browser)
        #expect(harness.recorded.map(\.title) == ["Kept In"])
    }
}
