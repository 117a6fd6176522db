import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

/// Listens a crashed run left open, without a bus: whose they are, which continue, how the rest end.
@Suite("Leftover listens after a crash")
struct LeftoverListensTests {
    func leftover(player: String, title: String = "Song", listened: Double, length: Double? = 200, app: String = "mpv") -> OpenListen {
        let asset = MediaAsset(title: title, artists: ["Artist"], album: "Album", appID: app, started: at(0), ended: at(listened),
                               listened: Microseconds(listened * 1e6), length: length.map { Microseconds($0 * 1e6) }, source: .mpris)
        return OpenListen(key: Listen(key: "\(Int(listened))-1", metadata: track(title), started: at(0), ended: at(listened),
                                      listened: 0).storeKey(player: player),
                          asset: asset, checkpoint: at(listened + 5))
    }

    @Test("leftovers are kept by player; those of players gone are taken at once, the rest when patience runs out")
    func byPlayer() {
        var leftovers = LeftoverListens()
        leftovers.adopt([leftover(player: ":1.1", listened: 100), leftover(player: ":1.2", listened: 50), leftover(player: ":1.2", listened: 60)])
        #expect(leftovers.takeGone(stillOnBus: [":1.2", "org.freedesktop.DBus"]).map(\.asset.listened) == [100 * second])
        #expect(leftovers.take(for: ":1.1") == nil)
        #expect(leftovers.takeAll().count == 2)
        #expect(leftovers.isEmpty)
    }

    @Test("one that qualified is recorded, ending at its last checkpoint; one that did not, or from an opted-out app, is removed")
    func finishing() {
        let qualified = leftover(player: ":1.1", listened: 150)
        guard case .record(let asset, qualified.key) = LeftoverListens.finishing(qualified, rule: .lastFM, privacy: PrivacySettings()) else {
            Issue.record("a qualified leftover was not recorded")
            return
        }
        #expect(asset.ended == at(155))
        let short = leftover(player: ":1.1", listened: 20)
        #expect(LeftoverListens.finishing(short, rule: .lastFM, privacy: PrivacySettings()) == .removeOpenListen(key: short.key))
        let optedOut = PrivacySettings(optOuts: ["mpv": .user])
        #expect(LeftoverListens.finishing(qualified, rule: .lastFM, privacy: optedOut) == .removeOpenListen(key: qualified.key))
        #expect(LeftoverListens.finishing(qualified, rule: .lastFM, privacy: PrivacySettings(mediaEnabled: false))
                == .removeOpenListen(key: qualified.key))
    }

    func reported(title: String, status: String) -> [String: DBusValue] {
        ["Metadata": .vardict([TrackMetadata.Key.title: .string(title), TrackMetadata.Key.artist: .strings(["Artist"]),
                               TrackMetadata.Key.album: .string("Album"), TrackMetadata.Key.length: .int64(200_000_000)]),
         "PlaybackStatus": .string(status), "Rate": .double(1)]
    }

    @Test("a player still playing the same track continues the listen, the time the broker was down counted")
    func continues() {
        let open = leftover(player: ":1.1", listened: 60)
        let resumed = LeftoverListens.resuming(open, with: reported(title: "Song", status: "Playing"), rule: .lastFM,
                                               recordingAllowed: true, at: at(90))
        #expect(resumed?.current?.key == Listen.parseStoreKey(open.key)?.key)
        #expect(resumed?.current(at: at(90))?.listened == 90 * second)
        #expect(resumed?.status == .playing)
    }

    @Test("another track, a stopped player, unreadable metadata or an app that may not be recorded does not continue")
    func doesNotContinue() {
        let open = leftover(player: ":1.1", listened: 60)
        #expect(LeftoverListens.resuming(open, with: reported(title: "Other", status: "Playing"), rule: .lastFM, recordingAllowed: true, at: at(90)) == nil)
        #expect(LeftoverListens.resuming(open, with: reported(title: "Song", status: "Stopped"), rule: .lastFM, recordingAllowed: true, at: at(90)) == nil)
        #expect(LeftoverListens.resuming(open, with: ["PlaybackStatus": .string("Playing")], rule: .lastFM, recordingAllowed: true, at: at(90)) == nil)
        #expect(LeftoverListens.resuming(open, with: reported(title: "Song", status: "Playing"), rule: .lastFM, recordingAllowed: false, at: at(90)) == nil)
    }
}
