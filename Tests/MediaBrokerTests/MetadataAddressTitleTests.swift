import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

/// Issue 17 §2: a page's address is no title, so a browser tab with nothing but its address makes
/// no listen; names that merely look a little like addresses are kept.
@Suite("Metadata: a web address is no title")
struct MetadataAddressTitleTests {
    @Test("addresses by their shape are no title", arguments: [
        "127.0.0.1:8766/notitle.html", "127.0.0.1:8766", "localhost:8000/a.ogg", "localhost", "192.168.1.20",
        "[::1]:8080/x", "[::1]", "example.com/watch?v=abc123&token=secret", "example.com:443",
        "www.example.com", "music.example.co.uk/track#t=30", "https://example.com", "http://x.org/a?b=c",
        "file:///home/me/Music/a.ogg", "about.blank.example.org/path",
    ])
    func shapes(title: String) {
        #expect(TrackMetadata(title: title).title == nil)
    }

    @Test("titles that only resemble addresses are kept", arguments: [
        "Song", "song.mp3", "Mr.Brightside/Live", "AC/DC", "Bandcamp.com", "example.com", "feat. someone/remix",
        "1.2/3", "https:// nothing", "Track 01: http intro", "Café.de/Paris", "www", "12:30", "a.b", "Ünïcödé/ü",
    ])
    func kept(title: String) {
        #expect(TrackMetadata(title: title).title == title)
    }

    @Test("the title that is the player's own xesam:url, with or without scheme, www. or query, is no title", arguments: [
        ("https://www.example.com/podcast/episode-7?utm=x", "example.com/podcast/episode-7?utm=x"),
        ("https://example.com/podcast/episode-7?utm=x", "example.com/podcast/episode-7"),
        ("https://Example.org/", "Example.org"),
        ("http://radio.local:8000/stream", "http://radio.local:8000/stream"),
    ])
    func ownURL(url: String, title: String) {
        #expect(TrackMetadata(title: title, url: url).title == nil)
    }

    @Test("a real title with the page's address as xesam:url is kept (Firefox sends both)")
    func realTitleWithURL() {
        let metadata = TrackMetadata(title: "Teardrop", artists: ["Massive Attack"], url: "https://example.com/watch?v=1")
        #expect(metadata.title == "Teardrop")
        #expect(metadata.isRecordable)
    }

    @Test("Chromium's tab with no title and no Media Session makes no listen, decoded as sent")
    func chromiumNoTitleMakesNoListen() {
        let metadata = TrackMetadata.decode([
            TrackMetadata.Key.trackID: .string("/org/chromium/MediaPlayer2/TrackList/Track1"),
            TrackMetadata.Key.title: .string("127.0.0.1:8766/notitle.html"),
            "mpris:artUrl": .string("file:///tmp/.org.chromium.Chromium.x"),
            TrackMetadata.Key.length: .int64(12_000_000),
        ])
        #expect(metadata.title == nil)
        var player = ScriptedPlayer(timers: true)
        player.play(metadata, at: 0)
        player.send(.playbackStatus(.stopped), at: 12)
        #expect(player.effects.isEmpty)
    }

    @Test("a fill-in cannot bring an address back as the title of a listen")
    func mergedKeepsNoAddress() {
        let first = TrackMetadata(trackID: "/t/1", url: "https://example.com/")
        let title = TrackMetadata(trackID: "/t/1", title: "example.com")
        #expect(title.title == "example.com")
        #expect(title.merged(over: first).title == nil)
    }
}
