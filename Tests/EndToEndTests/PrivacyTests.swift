import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// Issue 5: every path by which the person controls what is recorded, each proved by counting
/// the rows in the database file itself — not by what the broker chooses to answer.
@Suite struct PrivacyTests {
    /// Rows in the broker's database matching `condition`, read with the sqlite3 tool.
    func rows(_ broker: RunningBroker, where condition: String = "1") throws -> Int {
        let result = try ChildProcess.run("/usr/bin/sqlite3", arguments: [broker.databasePath, "SELECT count(*) FROM assets WHERE \(condition);"])
        guard result.status == .exited(0), let count = Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestSupportError("sqlite3 failed: \(result.standardError)")
        }
        return count
    }

    func openRows(_ broker: RunningBroker) throws -> Int {
        let result = try ChildProcess.run("/usr/bin/sqlite3", arguments: [broker.databasePath, "SELECT count(*) FROM open_listens;"])
        return Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Waits until the broker saw `player` reach `status`; after that, everything the player's
    /// earlier signals caused is queued in the store ahead of any later query.
    func waitUntil(_ client: MediaBrokerClient, sees player: ScriptedPlayer, as status: String) async throws {
        try await TestSupport.waitUntil("the broker sees \(player.busName) \(status)") {
            try await client.status().players.contains { $0.busName == player.busName && $0.playbackStatus == status }
        }
    }

    func startBroker(_ bus: PrivateBus, data: TemporaryDirectory? = nil) throws -> RunningBroker {
        try RunningBroker(bus: bus, data: data, arguments: ["--min-listen", "0"])
    }

    @Test("a listen is recorded when nothing forbids it (the control case for every test below)")
    func baseline() async throws {
        let bus = try PrivateBus.start()
        let broker = try startBroker(bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "jukebox")
        try await waitUntil(client, sees: player, as: "Stopped")
        try player.play(title: "Allowed")
        try await waitUntil(client, sees: player, as: "Playing")
        let now = try await client.nowPlaying()
        #expect(now.map(\.title) == ["Allowed"])
        #expect(now.first?.id == GenericMedia.notRecorded)
        try player.stop()
        try await waitUntil(client, sees: player, as: "Stopped")
        #expect(try rows(broker, where: "title = 'Allowed' AND app_id = 'jukebox'") == 1)
        #expect(try await client.recentMedia().map(\.title) == ["Allowed"])
    }

    @Test("the person opts out the active player mid-listen: nothing of it is recorded")
    func userOptsOutMidListen() async throws {
        let bus = try PrivateBus.start()
        let broker = try startBroker(bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "jukebox")
        try player.play(title: "Secret Song")
        try await waitUntil(client, sees: player, as: "Playing")
        try TestSupport.waitUntil("the listen is open on disk") { try openRows(broker) == 1 }

        try await client.setAppOptedOut("jukebox", true)
        #expect(try openRows(broker) == 0, "the listen in progress is discarded, not kept")
        try player.stop()
        try await waitUntil(client, sees: player, as: "Stopped")
        try player.play(title: "Next Secret")
        try await waitUntil(client, sees: player, as: "Playing")
        try player.stop()
        try await waitUntil(client, sees: player, as: "Stopped")

        #expect(try rows(broker, where: "app_id = 'jukebox'") == 0)
        #expect(try await client.optedOutApps() == ["jukebox"])
        let apps = try await client.apps()
        #expect(apps.first { $0.appID == "jukebox" }?.optedOutBy == .user)
    }

    @Test("past assets of an opted-out app are never returned, and opt-out --purge deletes them")
    func pastAssetsHidden() async throws {
        let bus = try PrivateBus.start()
        let broker = try startBroker(bus)
        let client = try broker.client()
        _ = try await client.donate(Donation(appID: "radio", title: "Old News"))
        _ = try await client.donate(Donation(appID: "other", title: "Kept"))
        try await client.setAppOptedOut("radio", true)
        #expect(try await client.recentMedia().map(\.title) == ["Kept"])
        #expect(try await client.recentMedia(appID: "radio").isEmpty)
        #expect(try rows(broker, where: "app_id = 'radio'") == 1, "opting out hides, purging deletes")
        #expect(try await client.purge(.app("radio")) == 1)
        #expect(try rows(broker, where: "app_id = 'radio'") == 0)
    }

    @Test("a player opts itself out; its own OptIn withdraws only its own opt-out")
    func appOptsItselfOut() async throws {
        let bus = try PrivateBus.start()
        let broker = try startBroker(bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "shy.instance42")
        try await waitUntil(client, sees: player, as: "Stopped")
        try await player.callBroker("OptOut")
        #expect(try await client.optedOutApps() == ["shy"], "the app id comes from the bus name, instance suffix stripped")
        #expect(try await client.apps().first { $0.appID == "shy" }?.optedOutBy == .app)

        try player.play(title: "Private")
        try await waitUntil(client, sees: player, as: "Playing")
        try player.stop()
        try await waitUntil(client, sees: player, as: "Stopped")
        #expect(try rows(broker, where: "app_id = 'shy'") == 0)

        try await player.callBroker("OptIn")
        #expect(try await client.optedOutApps().isEmpty)
    }

    @Test("an app cannot withdraw the person's opt-out")
    func appCannotOverrideUser() async throws {
        let bus = try PrivateBus.start()
        let broker = try startBroker(bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "pushy")
        try await waitUntil(client, sees: player, as: "Stopped")
        try await client.setAppOptedOut("pushy", true)
        do {
            try await player.callBroker("OptIn")
            Issue.record("OptIn against the user's opt-out was accepted")
        } catch {
            #expect(error.name.rawValue == "org.mediabroker.MediaBroker1.Error.OptedOutByUser")
        }
        #expect(try await client.optedOutApps() == ["pushy"])
        #expect(try await client.apps().first { $0.appID == "pushy" }?.optedOutBy == .user)
    }

    @Test("a process that owns no player name cannot opt anything out")
    func nonPlayerRefused() async throws {
        let bus = try PrivateBus.start()
        let broker = try startBroker(bus)
        let stranger = try BusConnection.connect(to: bus.address)
        defer { stranger.close() }
        do {
            _ = try await stranger.call(MethodCall(destination: "org.mediabroker.MediaBroker1", path: "/org/mediabroker/MediaBroker1",
                                                   interface: "org.mediabroker.MediaBroker1", member: "OptOut"))
            Issue.record("OptOut from a non-player was accepted")
        } catch {
            #expect(error.name.rawValue == "org.mediabroker.MediaBroker1.Error.NotAPlayer")
        }
        #expect(try await broker.client().optedOutApps().isEmpty)
    }

    @Test("with Media off nothing is recorded from players or donations, queries answer empty, and on resumes with the next listen")
    func mediaOff() async throws {
        let bus = try PrivateBus.start()
        let broker = try startBroker(bus)
        let client = try broker.client()
        _ = try await client.donate(Donation(appID: "notes", title: "Before"))
        let player = try await ScriptedPlayer(bus: bus, name: "jukebox")
        try player.play(title: "Interrupted")
        try await waitUntil(client, sees: player, as: "Playing")

        #expect(try await client.nowPlaying().map(\.title) == ["Interrupted"])
        try await client.setMediaEnabled(false)
        #expect(try await client.isMediaEnabled() == false)
        #expect(try await client.recentMedia().isEmpty)
        #expect(try await client.nowPlaying().isEmpty)
        await #expect(throws: MediaBrokerError.mediaDisabled) { try await client.donate(Donation(appID: "notes", title: "While Off")) }
        try player.stop()
        try await waitUntil(client, sees: player, as: "Stopped")
        try player.play(title: "Started While Off")
        try await waitUntil(client, sees: player, as: "Playing")

        try await client.setMediaEnabled(true)
        try player.stop()
        try await waitUntil(client, sees: player, as: "Stopped")
        try player.play(title: "After")
        try await waitUntil(client, sees: player, as: "Playing")
        try player.stop()
        try await waitUntil(client, sees: player, as: "Stopped")

        #expect(try rows(broker, where: "title IN ('Interrupted', 'While Off', 'Started While Off')") == 0, "\(broker.process.standardError)")
        #expect(try await client.recentMedia().map(\.title) == ["After", "Before"])
    }

    @Test("a track marked mediabroker:exclude is not recorded")
    func perItemExclude() async throws {
        let bus = try PrivateBus.start()
        let broker = try startBroker(bus)
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "jukebox")
        try player.play(title: "Hidden Track", extra: ["mediabroker:exclude": .boolean(true)])
        try await waitUntil(client, sees: player, as: "Playing")
        try player.stop()
        try await waitUntil(client, sees: player, as: "Stopped")
        try player.play(title: "Visible Track")
        try await waitUntil(client, sees: player, as: "Playing")
        try player.stop()
        try await waitUntil(client, sees: player, as: "Stopped")
        #expect(try rows(broker, where: "title = 'Hidden Track'") == 0)
        #expect(try rows(broker, where: "title = 'Visible Track'") == 1)
    }

    @Test("purge by range keeps since inclusive and until exclusive to the microsecond, and announces MediaRemoved")
    func purgeBoundaries() async throws {
        let bus = try PrivateBus.start()
        let broker = try startBroker(bus)
        let client = try broker.client()
        // These instants are years old: keep retention from deleting them under the test.
        try await client.setRetentionDays(0)
        let base: Int64 = 1_700_000_000_000_000
        for offset: Int64 in [-1, 0, 1, 999_999, 1_000_000, 1_000_001] {
            _ = try await client.donate(Donation(appID: "clock", title: "t\(offset)", started: Date(microsecondsSinceEpoch: base + offset)))
        }
        let removed = Mailbox<[Int64]>()
        let watcher = try BusConnection.connect(to: bus.address)
        defer { watcher.close() }
        let token = try await watcher.addMatch(MatchRule(interface: "org.mediabroker.MediaBroker1", member: "MediaRemoved")) { message in
            if let ids = try? message.arguments.first?.array().compactMap({ try? $0.integer(as: Int64.self) }) { removed.put(ids) }
        }
        defer { token.cancel() }
        // Since version 3 the broker sends MediaRemoved to subscribers alone.
        _ = try await watcher.call(MethodCall(destination: "org.mediabroker.MediaBroker1", path: "/org/mediabroker/MediaBroker1",
                                              interface: "org.mediabroker.MediaBroker1", member: "Subscribe"))
        let count = try await client.purge(.range(since: Date(microsecondsSinceEpoch: base), until: Date(microsecondsSinceEpoch: base + 1_000_000)))
        #expect(count == 3)
        #expect(try rows(broker) == 3)
        #expect(try rows(broker, where: "title IN ('t0', 't1', 't999999')") == 0)
        #expect(try await removed.take().count == 3)
        await #expect(throws: MediaBrokerError.self) { _ = try await client.purge(.range(since: nil, until: nil)) }
    }

    @Test("retention deletes what is older than RetentionDays when it is set, and 0 keeps everything")
    func retention() async throws {
        let bus = try PrivateBus.start()
        let data = try TemporaryDirectory(prefix: "retention")
        let broker = try startBroker(bus, data: data)
        let client = try broker.client()
        let day: TimeInterval = 86_400
        #expect(try await client.retentionDays() == 90)
        // A donation older than the window is refused (it would be deleted at once); with retention
        // off it is kept, until a window is set again.
        try await client.setRetentionDays(0)
        _ = try await client.donate(Donation(appID: "old", title: "Ancient", started: Date(timeIntervalSinceNow: -100 * day)))
        _ = try await client.donate(Donation(appID: "old", title: "Recent", started: Date(timeIntervalSinceNow: -10 * day)))
        // Setting a window runs the retention pass now.
        try await client.setRetentionDays(30)
        try TestSupport.waitUntil("the old asset is gone") { try rows(broker, where: "title = 'Ancient'") == 0 }
        #expect(try rows(broker, where: "title = 'Recent'") == 1)

        // Changing it back and forth: 0 keeps everything, a smaller window expires at once.
        try await client.setRetentionDays(0)
        _ = try await client.donate(Donation(appID: "old", title: "Forty Days", started: Date(timeIntervalSinceNow: -40 * day)))
        #expect(try rows(broker, where: "title = 'Forty Days'") == 1, "0 keeps forever")
        try await client.setRetentionDays(30)
        try TestSupport.waitUntil("the forty-day asset is gone") { try rows(broker, where: "title = 'Forty Days'") == 0 }
    }

    @Test("settings survive kill -9 and a restart")
    func settingsSurviveCrash() async throws {
        let bus = try PrivateBus.start()
        let data = try TemporaryDirectory(prefix: "crash")
        let broker = try startBroker(bus, data: data)
        let client = try broker.client()
        try await client.setMediaEnabled(false)
        try await client.setAppOptedOut("spy", true)
        try await client.setRetentionDays(7)
        broker.process.signal(SIGKILL)
        #expect(try broker.process.waitForExit(timeout: .seconds(10)) == .signalled(SIGKILL))
        try bus.waitForNameToVanish("org.mediabroker.MediaBroker1")

        let restarted = try startBroker(bus, data: data)
        let again = try restarted.client()
        #expect(try await again.isMediaEnabled() == false)
        #expect(try await again.optedOutApps() == ["spy"])
        #expect(try await again.retentionDays() == 7)
        try restarted.stop()
    }
}

extension PrivacyTests {
    @Test("damaged stored settings: the broker names the bad line and keeps Media off rather than record an opted-out app")
    func damagedSettingsFailClosed() async throws {
        let bus = try PrivateBus.start()
        let data = try TemporaryDirectory(prefix: "damaged")
        let first = try startBroker(bus, data: data)
        try await first.client().setAppOptedOut("spy", true)
        try first.stop()
        let damage = try ChildProcess.run("/usr/bin/sqlite3", arguments: [
            first.databasePath, "UPDATE settings SET value = 'media_enabled=1' || char(10) || 'opt_out=spy' WHERE key = 'privacy';",
        ])
        #expect(damage.status == .exited(0), "\(damage.standardError)")

        let broker = try startBroker(bus, data: data)
        let client = try broker.client()
        #expect(try await client.isMediaEnabled() == false)
        try broker.process.waitForOutput(containing: "line 2", in: .standardError, timeout: .seconds(10))
        // Setting anything writes a whole, valid text again.
        try await client.setAppOptedOut("spy", true)
        try await client.setMediaEnabled(true)
        try broker.stop()
        let again = try startBroker(bus, data: data)
        #expect(try await again.client().optedOutApps() == ["spy"])
        #expect(try await again.client().isMediaEnabled())
        try again.stop()
    }
}

extension PrivateBus {
    func waitForNameToVanish(_ name: String) throws {
        try waitUntil("\(name) leaves the bus") { try !listNames().contains(name) }
    }
}

extension Date {
    init(microsecondsSinceEpoch value: Int64) { self.init(timeIntervalSince1970: Double(value) / 1_000_000) }
}
