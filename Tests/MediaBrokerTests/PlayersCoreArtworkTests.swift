@testable import MediaBroker
import SwiftDBus
import Testing
@testable import BrokerCore
import CoreFixtures

/// The art a player points at, with no bus and no disk: read once per URL and at once, handed to
/// the store with the listen's first write that names it, never for a track that is no listen.
@Suite("PlayersCore: artwork")
struct PlayersCoreArtworkTests {
    static let folder = "/data/media-broker/artwork"
    static let image = SecuredArtwork(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 1, count: 64))

    static func play(_ harness: PlayersCoreHarness, _ ref: PlayerRef, _ title: String, art: String?) {
        harness.answer(ref, ["Metadata": PlayersCoreHarness.track(title, art: art), "PlaybackStatus": .string("Playing")])
    }

    @Test("a local art file is read once, at once; the listen's first write keeps it and names it")
    func localFile() throws {
        let harness = PlayersCoreHarness(artworkFolder: Self.folder)
        let image = try #require(Self.image)
        let ref = try harness.follow("org.mpris.MediaPlayer2.chromium.instance1", as: ":1.5")
        Self.play(harness, ref, "Song", art: "file:///tmp/.org.chromium.Chromium.abc")
        #expect(harness.actions.contains(.secureArtwork(ref, url: "file:///tmp/.org.chromium.Chromium.abc", process: FakeProcess.connected(4242))))
        harness.forgetActions()
        Self.play(harness, ref, "Song", art: "file:///tmp/.org.chromium.Chromium.abc")
        #expect(!harness.actions.contains { if case .secureArtwork = $0 { true } else { false } })
        harness.feed(.artworkSecured(ref, url: "file:///tmp/.org.chromium.Chromium.abc", image))
        harness.advance(by: 120 * second)
        let work = harness.storeWork
        let kept = try #require(work.firstIndex(of: .keepArtwork(image)))
        guard case .saveOpenListen(_, let asset, _) = work[kept + 1] else {
            Issue.record("the art was not kept right before the listen's write: \(work)")
            return
        }
        #expect(asset.artwork == Self.folder + "/" + image.fileName)
        #expect(work.filter { $0 == .keepArtwork(image) }.count == 1)
        harness.stopPlaying(ref)
        #expect(harness.recorded.first?.artwork == Self.folder + "/" + image.fileName)
    }

    @Test("art told before the bus daemon named the player's process is read once it has, as that process sees its files")
    func artWaitsForTheProcess() throws {
        let harness = PlayersCoreHarness(artworkFolder: Self.folder)
        let ref = try #require(harness.meet("org.mpris.MediaPlayer2.chromium.instance1", as: ":1.5"))
        Self.play(harness, ref, "Song", art: "file:///tmp/.org.chromium.Chromium.abc")
        #expect(!harness.actions.contains { if case .secureArtwork = $0 { true } else { false } }, "no process yet")
        harness.identify(ref, pid: 77)
        #expect(harness.actions.contains(.secureArtwork(ref, url: "file:///tmp/.org.chromium.Chromium.abc", process: FakeProcess.connected(77))))
    }

    @Test("a track that never becomes a listen leaves no art")
    func noListenNoArt() throws {
        let harness = PlayersCoreHarness(artworkFolder: Self.folder)
        let image = try #require(Self.image)
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        Self.play(harness, ref, "Skipped", art: "file:///art/a.png")
        harness.feed(.artworkSecured(ref, url: "file:///art/a.png", image))
        harness.advance(by: 2 * second)
        harness.stopPlaying(ref)
        #expect(!harness.storeWork.contains(.keepArtwork(image)))
    }

    @Test("an http(s) URL is never read: it is the asset's artwork_url")
    func remote() throws {
        let harness = PlayersCoreHarness(artworkFolder: Self.folder)
        let ref = try harness.follow("org.mpris.MediaPlayer2.spotify", as: ":1.5")
        Self.play(harness, ref, "Streamed", art: "https://i.scdn.co/image/ab67616d0000b273")
        #expect(!harness.actions.contains { if case .secureArtwork = $0 { true } else { false } })
        harness.advance(by: 120 * second)
        harness.stopPlaying(ref)
        let asset = try #require(harness.recorded.first)
        #expect(asset.artworkURL == "https://i.scdn.co/image/ab67616d0000b273" && asset.artwork == nil)
    }

    @Test("a history in memory keeps no art: nothing is read")
    func noFolder() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        Self.play(harness, ref, "Song", art: "file:///art/a.png")
        #expect(!harness.actions.contains { if case .secureArtwork = $0 { true } else { false } })
    }

    @Test("art that came back empty, or for a player that left, changes nothing")
    func nothingSecured() throws {
        let harness = PlayersCoreHarness(artworkFolder: Self.folder)
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        Self.play(harness, ref, "Song", art: "file:///art/a.png")
        harness.feed(.artworkSecured(ref, url: "file:///art/a.png", nil))
        harness.advance(by: 120 * second)
        harness.stopPlaying(ref)
        #expect(harness.recorded.first?.artwork == nil)
        harness.feed(.nameOwnerChanged(name: "org.mpris.MediaPlayer2.vlc", old: ":1.5", new: ""))
        #expect(harness.feed(.artworkSecured(ref, url: "file:///art/a.png", Self.image)).isEmpty)
    }
}
