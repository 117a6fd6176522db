@testable import MediaBroker
import SwiftDBus
import Testing
@testable import BrokerCore
import CoreFixtures

/// Players whose leaving the broker was not told, with no bus: the bus daemon drops messages for a
/// connection whose queue is full, a `NameOwnerChanged` among them. A read that finds no such
/// connection, or a check of who is on the bus, ends their listens as leaving does.
@Suite("PlayersCore: players that left unannounced")
struct PlayersCoreLostLeavingTests {
    static let stranger = ":1.99"

    /// A `Seeked` from a connection the core does not follow: counted, and otherwise ignored.
    static func strangerSignal(_ harness: PlayersCoreHarness) -> [PlayersCore.Action] {
        harness.feed(.seeked(sender: stranger, path: PlayersCore.mprisPath, position: 0))
    }

    @Test("a read the bus answers with ServiceUnknown or NameHasNoOwner is the player leaving: its listen ends")
    func readFindsNoOne() throws {
        for gone in [ErrorName.serviceUnknown, .nameHasNoOwner] {
            let harness = PlayersCoreHarness()
            let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
            harness.play(ref, "Teardrop")
            harness.advance(by: 120 * second)
            harness.feed(.answered(ref, .player, .failure(BusError(gone, "The name :1.5 was not provided by any .service files"))))
            let asset = try #require(harness.recorded.only)
            #expect(asset.title == "Teardrop" && asset.listened == 120 * second)
            #expect(harness.core.followedPlayers().isEmpty)
            #expect(harness.core.appID(ofPlayer: ":1.5") == nil)
        }
    }

    @Test("any other failed read leaves the player followed and playing")
    func otherFailure() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "Teardrop")
        harness.feed(.answered(ref, .player, .failure(BusError(.noReply, "Did not receive a reply"))))
        #expect(harness.core.followedPlayers().map(\.playbackStatus) == ["Playing"])
        #expect(harness.recorded.isEmpty)
    }

    @Test("every 1,000 signals the core asks who is on the bus, one check at a time")
    func checksWhileSignalsPour() {
        let harness = PlayersCoreHarness()
        let first = (1...PlayersCore.signalsBetweenNameChecks).map { _ in Self.strangerSignal(harness) }
        #expect(first.dropLast().allSatisfy { $0.isEmpty })
        #expect(first.last == [.listNames])
        let whileChecking = (1...PlayersCore.signalsBetweenNameChecks).flatMap { _ in Self.strangerSignal(harness) }
        #expect(whileChecking.isEmpty)
        // A check that failed lets the next one be asked.
        harness.feed(.onBus(names: nil))
        #expect(Self.strangerSignal(harness) == [.listNames])
    }

    @Test("a followed name the bus no longer has left unannounced; a player name not met is looked up")
    func reconciled() throws {
        let harness = PlayersCoreHarness()
        let vlc = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        let mpv = try harness.follow("org.mpris.MediaPlayer2.mpv", as: ":1.6")
        harness.play(vlc, "Teardrop")
        harness.play(mpv, "Angel")
        harness.advance(by: 120 * second)
        let actions = harness.feed(.onBus(names: ["org.freedesktop.DBus", ":1.6", "org.mpris.MediaPlayer2.mpv",
                                                  ":1.7", "org.mpris.MediaPlayer2.newcomer", "org.mpris.MediaPlayer2.playerctld"]))
        #expect(actions.filter { if case .lookUpOwner = $0 { true } else { false } } == [.lookUpOwner("org.mpris.MediaPlayer2.newcomer")])
        let asset = try #require(harness.recorded.only)
        #expect(asset.title == "Teardrop" && asset.listened == 120 * second)
        #expect(harness.core.followedPlayers().map(\.busName) == ["org.mpris.MediaPlayer2.mpv"])
        #expect(harness.core.followedPlayers().map(\.playbackStatus) == ["Playing"])
    }

    @Test("a player that dropped one of its names, unannounced, is still followed under the others")
    func oneNameLost() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.chromium.instance1", as: ":1.5")
        harness.feed(.nameOwnerChanged(name: "org.mpris.MediaPlayer2.chromium.instance2", old: "", new: ":1.5"))
        harness.play(ref, "Teardrop")
        harness.feed(.onBus(names: [":1.5", "org.mpris.MediaPlayer2.chromium.instance1"]))
        #expect(harness.core.followedPlayers().map(\.busName) == ["org.mpris.MediaPlayer2.chromium.instance1"])
        #expect(harness.recorded.isEmpty)
    }

    @Test("after the broker stops, a check's answer changes nothing")
    func afterStop() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "Teardrop")
        harness.advance(by: 120 * second)
        harness.feed(.stop)
        #expect(harness.recorded.count == 1)
        #expect(harness.feed(.onBus(names: [])).isEmpty)
        #expect(harness.recorded.count == 1)
    }
}
