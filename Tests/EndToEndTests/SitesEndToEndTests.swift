import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 34 §4 on real parts: Debian's Firefox ESR tells the page it plays (`xesam:url`); the
/// broker keeps its host as the listen's site, and a site the person opted out stays out while
/// another site in the same browser is recorded.
@Suite struct SitesEndToEndTests {
    /// Plays `session.html` from `host` to its end in a fresh run of Firefox, then quits it.
    func play(on host: String, _ rig: BrowserRig) async throws {
        let browser = try rig.open("session.html", in: .firefox, host: host)
        try browser.waitForBusName()
        // At the end of an <audio>, Firefox says Paused (and seeks to the end).
        try await rig.waitUntilBrokerSees(browser, as: "Paused", timeout: .seconds(40))
        try await rig.quit(browser)
    }

    @Test("a site opted out is not recorded, another site in the same browser is, with its host and never its path; purging a site deletes its listens")
    func optedOutSiteStaysOut() async throws {
        let rig = try BrowserRig(firefox: true)
        let out = try rig.broker.brokerCtl(["opt-out", "--site", "LOCALHOST"])
        #expect(out.status == .exited(0), "\(out.standardError)")
        #expect(try await rig.client.optedOutSites() == ["localhost"])

        try await play(on: "localhost", rig)
        #expect(try rig.storedRows() == 0, "a listen on an opted-out site was recorded")
        try await play(on: "127.0.0.1", rig)
        let assets = try await rig.assets()
        #expect(assets.map(\.title) == ["Browser Song"])
        #expect(assets.map(\.site) == ["127.0.0.1"], "\(rig.describe(assets))")
        #expect(try await rig.client.apps().first { $0.appID == "firefox-esr" }?.sites == ["127.0.0.1"])
        let dump = try ChildProcess.run("/usr/bin/sqlite3", arguments: [rig.broker.databasePath, ".dump"])
        #expect(dump.standardOutput.contains("127.0.0.1") && !dump.standardOutput.contains("session.html"),
                "the page's path reached the history file, or its site did not")

        let purged = try rig.broker.brokerCtl(["opt-out", "--site", "127.0.0.1", "--purge", "--yes"])
        #expect(purged.standardOutput == "Opted out 127.0.0.1 and deleted 1 listen.\n", "\(purged.standardError)")
        #expect(try rig.storedRows() == 0)
    }
}
