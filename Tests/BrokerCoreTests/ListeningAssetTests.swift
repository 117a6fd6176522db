import Testing
@testable import BrokerCore
import CoreFixtures

@Suite("Listening: a listen as a MediaAsset")
struct ListeningAssetTests {
    @Test("every contract field comes from the listen, the metadata and the app")
    func assetFields() {
        let metadata = TrackMetadata(
            trackID: "spotify:episode:1", title: "Episode 12", artists: ["Host A", "Host B"], album: "The Show",
            length: 3_000 * second)
        let listen = Listen(key: "k", metadata: metadata, started: at(0), ended: at(1_800), listened: 1_700 * second)
        let asset = listen.asset(appID: "com.spotify.Client", appName: "Spotify", appIcon: "/usr/share/icons/spotify.png")
        #expect(asset == MediaAsset(
            title: "Episode 12", artists: ["Host A", "Host B"], album: "The Show", appID: "com.spotify.Client",
            appName: "Spotify", appIcon: "/usr/share/icons/spotify.png", started: at(0), ended: at(1_800),
            listened: 1_700 * second, length: 3_000 * second, kind: .podcast, source: .mpris))
        #expect(asset?.artist == "Host A, Host B")
    }

    @Test("no title, no asset")
    func noTitleNoAsset() {
        let listen = Listen(key: "k", metadata: TrackMetadata(album: "Only"), started: 0, ended: 0, listened: 0)
        #expect(listen.asset(appID: "spotify", appName: nil, appIcon: nil) == nil)
    }

    @Test("absent fields stay absent: no album, no length, no kind")
    func absentFields() {
        let listen = Listen(key: "k", metadata: TrackMetadata(title: "T"), started: 5, ended: 9, listened: 4)
        let asset = listen.asset(appID: "firefox", appName: nil, appIcon: nil)
        #expect(asset?.album == nil)
        #expect(asset?.length == nil)
        #expect(asset?.kind == nil)
        #expect(asset?.artists == [])
    }
}
