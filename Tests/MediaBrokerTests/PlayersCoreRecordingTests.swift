import Clocks
@testable import MediaBroker
import SwiftDBus
import Testing
@testable import BrokerCore
import CoreFixtures

/// What the core asks the store to do for what players play, with no bus and no disk: listens
/// recorded under the app once it is known, the person's settings mid-listen, the twin rule,
/// listens a crashed run left open, and stopping.
@Suite("PlayersCore: listens become store work")
struct PlayersCoreRecordingTests {
    @Test("a listen is written while it plays and recorded under the resolved app when it ends")
    func recorded() throws {
        let harness = PlayersCoreHarness()
        harness.apps["org.mpris.MediaPlayer2.vlc"] = AppIdentity(appID: "org.videolan.VLC", appName: "VLC", appIcon: "/icons/vlc.png", source: .desktopEntry)
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "Teardrop")
        harness.advance(by: 120 * second)
        #expect(harness.storeWork.contains { if case .saveOpenListen = $0 { true } else { false } })
        harness.stopPlaying(ref)
        let asset = try #require(harness.recorded.only)
        #expect(asset.title == "Teardrop" && asset.appID == "org.videolan.VLC" && asset.appName == "VLC" && asset.appIcon == "/icons/vlc.png")
        #expect(asset.listened == 120 * second)
    }

    @Test("a listen too short to count is not recorded, and its record in progress is removed")
    func tooShort() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "Skipped")
        harness.advance(by: 5 * second)
        harness.stopPlaying(ref)
        #expect(harness.recorded.isEmpty)
    }

    @Test("store work waits for the app; it is done under the app found, never under a guess")
    func heldForApp() throws {
        let harness = PlayersCoreHarness()
        let ref = try #require(harness.meet("org.mpris.MediaPlayer2.chromium.instance9", as: ":1.5"))
        harness.play(ref, "Early")
        harness.advance(by: 120 * second)
        harness.stopPlaying(ref)
        #expect(harness.storeWork.isEmpty)
        #expect(!harness.core.isSettled)
        harness.apps["org.mpris.MediaPlayer2.chromium.instance9"] = AppIdentity(appID: "chromium", appName: "Chromium", appIcon: nil, source: .desktopEntry)
        harness.identify(ref, desktopEntry: "chromium")
        #expect(harness.recorded.map(\.appID) == ["chromium"])
        #expect(harness.core.isSettled)
    }

    @Test("a player that finishes 256 listens before its app is known has it resolved at once")
    func heldBound() throws {
        let harness = PlayersCoreHarness()
        let ref = try #require(harness.meet("org.mpris.MediaPlayer2.flood", as: ":1.5"))
        for index in 0..<PlayersCore.maximumHeldListens {
            harness.play(ref, "Track \(index)", length: 40 * second)
            harness.advance(by: 40 * second)
        }
        harness.play(ref, "Last", length: 40 * second)
        #expect(harness.resolvedNow.map(\.busName) == ["org.mpris.MediaPlayer2.flood"])
        #expect(harness.recorded.count == PlayersCore.maximumHeldListens)
    }

    @Test("an app opted out mid-listen: the listen is discarded, not finished, and the next one is not recorded either")
    func optOutMidListen() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "Private")
        harness.advance(by: 120 * second)
        harness.feed(.privacyChanged(PrivacySettings(optOuts: ["vlc": .user])))
        #expect(harness.core.nowPlaying().isEmpty)
        harness.play(ref, "Also private")
        harness.advance(by: 120 * second)
        harness.stopPlaying(ref)
        #expect(harness.recorded.isEmpty)
        #expect(harness.storeWork.contains { if case .removeOpenListen = $0 { true } else { false } })
    }

    @Test("a listen that began while Media was off stays out of the history though Media comes back on; the next is recorded")
    func suppressedToItsEnd() throws {
        let harness = PlayersCoreHarness(privacy: PrivacySettings(mediaEnabled: false))
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "While off")
        harness.advance(by: 30 * second)
        harness.feed(.privacyChanged(PrivacySettings()))
        harness.advance(by: 90 * second)
        harness.play(ref, "After")
        harness.advance(by: 120 * second)
        harness.stopPlaying(ref)
        #expect(harness.recorded.map(\.title) == ["After"])
    }

    @Test("the twin rule: a proxy's copy of a song another player plays is not counted twice")
    func twins() throws {
        let harness = PlayersCoreHarness()
        let browser = try harness.follow("org.mpris.MediaPlayer2.firefox", as: ":1.5")
        let proxy = try harness.follow("org.mpris.MediaPlayer2.plasma-browser-integration", as: ":1.6")
        harness.play(browser, "Same song")
        harness.play(proxy, "Same song")
        harness.advance(by: 120 * second)
        harness.stopPlaying(proxy)
        harness.stopPlaying(browser)
        #expect(harness.recorded.map(\.appID) == ["firefox"])
        #expect(harness.storeWork.contains { if case .removeTwin = $0 { true } else { false } })
    }

    @Test("a listen a crashed run left open is recorded at its checkpoint when its player is gone")
    func leftoverOfGonePlayer() {
        let harness = PlayersCoreHarness()
        let open = Self.leftover(player: ":1.9", listened: 150 * second)
        let short = Self.leftover(player: ":1.8", listened: 3 * second)
        harness.core.adoptLeftovers([open, short])
        harness.feed(.listed(names: [":1.5"]))
        #expect(harness.storeWork.contains(.record(Self.finished(open), openKey: open.key)))
        #expect(harness.storeWork.contains(.removeOpenListen(key: short.key)))
        #expect(harness.timers.isEmpty)
    }

    @Test("a leftover whose player still plays the same track continues, the time the broker was down counted")
    func leftoverResumed() throws {
        let harness = PlayersCoreHarness()
        let open = Self.leftover(player: ":1.5", listened: 20 * second, title: "Still playing")
        harness.core.adoptLeftovers([open])
        harness.feed(.listed(names: [":1.5", "org.mpris.MediaPlayer2.vlc"]))
        #expect(harness.timers[.leftovers] != nil)
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.answer(ref, ["Metadata": PlayersCoreHarness.track("Still playing"), "PlaybackStatus": .string("Playing")])
        #expect(harness.logLines.contains { $0.contains("resumed a listen") })
        harness.advance(by: 60 * second)
        harness.stopPlaying(ref)
        let asset = try #require(harness.recorded.only)
        #expect(asset.title == "Still playing" && asset.listened > 80 * second)
    }

    @Test("leftovers whose player never answers are finished when the patience runs out")
    func leftoverPatience() {
        let harness = PlayersCoreHarness()
        let open = Self.leftover(player: ":1.5", listened: 150 * second)
        harness.core.adoptLeftovers([open])
        harness.feed(.listed(names: [":1.5"]))
        #expect(harness.recorded.isEmpty)
        harness.advance(by: LeftoverListens.patience.wholeMicroseconds)
        #expect(harness.recorded.count == 1)
    }

    @Test("stopping ends every listen, resolving an app still unknown, and cancels every timer")
    func stopping() throws {
        let harness = PlayersCoreHarness()
        let ref = try #require(harness.meet("org.mpris.MediaPlayer2.vlc", as: ":1.5"))
        harness.play(ref, "Until the end")
        harness.advance(by: 120 * second)
        harness.feed(.stop)
        #expect(harness.recorded.map(\.title) == ["Until the end"])
        #expect(harness.resolvedNow.count == 1)
        #expect(harness.timers.isEmpty)
        #expect(harness.feed(.nameOwnerChanged(name: "org.mpris.MediaPlayer2.new", old: "", new: ":1.7")).isEmpty)
    }

    @Test("a player leaving ends its listen at once")
    func playerLeaves() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "Gone")
        harness.advance(by: 120 * second)
        harness.feed(.nameOwnerChanged(name: "org.mpris.MediaPlayer2.vlc", old: ":1.5", new: ""))
        #expect(harness.recorded.map(\.title) == ["Gone"])
        #expect(harness.timers.isEmpty)
        #expect(harness.core.appID(ofPlayer: ":1.5") == nil)
    }

    // MARK: Leftovers

    static let crashedAt: Microseconds = 1_800_000_000_000_000 - 40 * second

    static func leftover(player: String, listened: Microseconds, title: String = "Left open") -> OpenListen {
        let asset = MediaAsset(title: title, artists: ["Artist"], appID: "vlc", started: crashedAt - listened, ended: crashedAt,
                               listened: listened, length: 200 * second, source: .mpris)
        return OpenListen(key: "\(player) \(crashedAt - listened)-1", asset: asset, checkpoint: crashedAt)
    }

    static func finished(_ leftover: OpenListen) -> MediaAsset {
        var asset = leftover.asset
        asset.ended = leftover.checkpoint
        return asset
    }
}

extension Collection {
    /// The one element, when there is exactly one.
    var only: Element? { count == 1 ? first : nil }
}
