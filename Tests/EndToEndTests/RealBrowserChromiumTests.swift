import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 17: Debian's Chromium, headless, playing real pages into a null sink, recorded by the
/// broker as any MPRIS player is — by its Media Session metadata, never by its address.
@Suite struct RealBrowserChromiumTests {
    @Test("a page with Media Session metadata: one listen, as Chromium Web Browser with its icon, the whole track heard")
    func mediaSession() async throws {
        let rig = try BrowserRig()
        let browser = try rig.open("session.html", in: .chromium)
        let asset = try #require(try await rig.waitForAssets(1).first)
        #expect(asset.title == "Browser Song")
        #expect(asset.artists == ["Browser Artist"])
        #expect(asset.album == "Browser Album")
        #expect(asset.appID == "chromium")
        #expect(asset.appName == "Chromium Web Browser")
        #expect(asset.appIcon.map { FileManager.default.fileExists(atPath: $0) } == true)
        #expect(asset.listened.map { $0 >= .seconds(BrowserRig.trackSeconds - 1) } == true, "\(rig.describe([asset]))")
        try await rig.quit(browser)
        #expect(try await rig.assets().count == 1)
    }

    @Test("a page with no title and no Media Session: its address is no title, nothing is recorded")
    func noTitle() async throws {
        let rig = try BrowserRig()
        let browser = try rig.open("notitle.html", in: .chromium)
        try browser.waitForBusName()
        // Chromium says Stopped at the end of the track: all it said is queued by then.
        try await rig.waitUntilBrokerSees(browser, as: "Stopped")
        #expect(try await rig.client.nowPlaying().isEmpty)
        try await rig.quit(browser)
        #expect(try rig.storedRows() == 0)
    }

    @Test("a <video> that ends is recorded when it ends")
    func video() async throws {
        let rig = try BrowserRig()
        let browser = try rig.open("video.html", in: .chromium)
        let assets = try await rig.waitForAssets(1)
        #expect(assets.map(\.title) == ["Browser Video"])
        #expect(browser.process.isRunning)
        try await rig.quit(browser)
    }

    @Test("a playlist A, B, A is three listens in order")
    func playlist() async throws {
        let rig = try BrowserRig()
        let browser = try rig.open("playlist.html", in: .chromium)
        let assets = try await rig.waitForAssets(3, timeout: .seconds(60))
        #expect(assets.map(\.title) == ["Track A", "Track B", "Track A"], "\(rig.describe(assets))")
        try await rig.quit(browser)
        #expect(try await rig.assets().count == 3)
    }

    @Test("closing the browser mid-play ends the listen with the time heard")
    func closedMidPlay() async throws {
        let rig = try BrowserRig()
        let browser = try rig.open("long.html", in: .chromium)
        try await rig.waitUntilHeard(browser, playingFor: .seconds(4))
        try await rig.quit(browser)
        let asset = try #require(try await rig.assets().first)
        #expect(asset.title == "Long Song")
        #expect(asset.listened.map { $0 >= .seconds(3) && $0 < .seconds(BrowserRig.longTrackSeconds - 2) } == true)
    }

    @Test("a tab that pauses after a second, then closes, leaves nothing: too short to count")
    func pausedEarly() async throws {
        let rig = try BrowserRig()
        let browser = try rig.open("pause.html", in: .chromium)
        try await rig.waitUntilBrokerSees(browser, as: "Paused")
        try await rig.quit(browser)
        #expect(try rig.storedRows() == 0)
    }

    @Test("served without range requests: the name comes seconds late, the listen still starts when the audio did")
    func lateNameWithoutRanges() async throws {
        let rig = try BrowserRig(rangeRequests: false)
        let browser = try rig.open("long.html", in: .chromium)
        let asset = try #require(try await rig.waitForAssets(1, timeout: .seconds(40)).first)
        let length = try #require(asset.length)
        #expect(asset.title == "Long Song")
        // Chromium's name appears ~2.7 s into the audio; counted from then, 9 of 12 s were heard.
        #expect(asset.listened.map { $0 >= length - .seconds(1) } == true, "listened \(String(describing: asset.listened)) of \(length)")
        #expect(asset.ended.map { $0.timeIntervalSince(asset.date) >= Double(length / .seconds(1)) - 1 } == true)
        try await rig.quit(browser)
        #expect(try await rig.assets().count == 1)
    }
}
