import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 17: Debian's Firefox ESR on a virtual display, playing real pages into a null sink. Its
/// identity survives the start-up race (its name is there ~45 ms before its object), a finished
/// `<audio>` is recorded while the tab stays open, and its placeholder is never a title.
@Suite struct RealBrowserFirefoxTests {
    /// Plays `session.html` to its end in a run of Firefox with `profile`, then quits it.
    func playSessionPage(_ rig: BrowserRig, profile: BrowserProfile) async throws {
        let browser = try rig.open("session.html", in: .firefox, profile: profile)
        try browser.waitForBusName()
        // At the end of an <audio>, Firefox says Paused (and seeks to the end).
        try await rig.waitUntilBrokerSees(browser, as: "Paused", timeout: .seconds(40))
        try await rig.quit(browser)
    }

    @Test("a cold start and a warm start are one app, Firefox ESR with its icon, listed once")
    func coldAndWarmStart() async throws {
        let rig = try BrowserRig(firefox: true)
        let profile = try BrowserProfile()
        try await playSessionPage(rig, profile: profile)
        try await playSessionPage(rig, profile: profile)
        let assets = try await rig.assets()
        #expect(assets.map(\.title) == ["Browser Song", "Browser Song"])
        #expect(assets.map(\.appID) == ["firefox-esr", "firefox-esr"])
        #expect(assets.map(\.appName) == ["Firefox ESR", "Firefox ESR"])
        #expect(assets.allSatisfy { $0.appIcon.map { FileManager.default.fileExists(atPath: $0) } == true })
        #expect(assets.map(\.artists) == [["Browser Artist"], ["Browser Artist"]], "three signals of filling-in, one listen each")
        #expect(try await rig.client.apps().map(\.appID) == ["firefox-esr"])
        let listed = try rig.broker.brokerCtl(["apps"])
        #expect(listed.standardOutput.components(separatedBy: "firefox").count - 1 == 1, "\(listed.standardOutput)")
    }

    @Test("an opt-out of firefox-esr leaves no row from a cold or a warm start")
    func optOutCoversEveryStart() async throws {
        let rig = try BrowserRig(firefox: true)
        try await rig.client.setAppOptedOut("firefox-esr", true)
        let profile = try BrowserProfile()
        try await playSessionPage(rig, profile: profile)
        try await playSessionPage(rig, profile: profile)
        #expect(try rig.storedRows() == 0)
    }

    @Test("a finished <audio> is recorded at its end while the tab stays open")
    func finishedAudioWhileTheTabLives() async throws {
        let rig = try BrowserRig(firefox: true)
        let browser = try rig.open("session.html", in: .firefox)
        let asset = try #require(try await rig.waitForAssets(1, timeout: .seconds(40)).first)
        #expect(asset.title == "Browser Song")
        #expect(browser.process.isRunning)
        #expect(try await rig.client.status().players.contains { $0.busName.hasPrefix(browser.busNamePrefix) && $0.playbackStatus == "Paused" })
        #expect(try await rig.client.nowPlaying().isEmpty, "an ended track is not playing")
        try await rig.quit(browser)
        #expect(try await rig.assets().count == 1)
    }

    @Test("a page with no title and no Media Session: Firefox's placeholder is no title, nothing is recorded")
    func placeholder() async throws {
        let rig = try BrowserRig(firefox: true)
        let browser = try rig.open("notitle.html", in: .firefox)
        try browser.waitForBusName()
        // Without Media Session metadata, Firefox gives up its name when the track ends.
        try browser.waitUntilNoBusName(timeout: .seconds(40))
        try await rig.broker.waitUntilNoPlayers(rig.client)
        #expect(try rig.storedRows() == 0)
        try await rig.quit(browser)
    }

    @Test("a playlist A, B, A under Firefox's one track id is three listens in order")
    func playlist() async throws {
        let rig = try BrowserRig(firefox: true)
        let browser = try rig.open("playlist.html", in: .firefox)
        let assets = try await rig.waitForAssets(3, timeout: .seconds(60))
        #expect(assets.map(\.title) == ["Track A", "Track B", "Track A"], "\(rig.describe(assets))")
        try await rig.quit(browser)
        #expect(try await rig.assets().count == 3)
    }

    @Test("a <video> that ends says Stopped and is recorded at once")
    func video() async throws {
        let rig = try BrowserRig(firefox: true)
        let browser = try rig.open("video.html", in: .firefox)
        #expect(try await rig.waitForAssets(1, timeout: .seconds(40)).map(\.title) == ["Browser Video"])
        #expect(browser.process.isRunning)
        try await rig.quit(browser)
    }

    @Test("closing Firefox mid-play ends the listen with the time heard")
    func closedMidPlay() async throws {
        let rig = try BrowserRig(firefox: true)
        let browser = try rig.open("long.html", in: .firefox)
        try browser.waitForBusName()
        try await rig.waitUntilHeard(browser, playingFor: .seconds(4))
        try await rig.quit(browser)
        let asset = try #require(try await rig.assets().first)
        #expect(asset.title == "Long Song")
        #expect(asset.listened.map { $0 >= .seconds(3) && $0 < .seconds(BrowserRig.longTrackSeconds - 2) } == true)
    }
}
