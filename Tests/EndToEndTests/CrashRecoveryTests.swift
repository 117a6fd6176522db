import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 3 §3: a listen in progress survives `kill -9` of the broker.
@Suite struct CrashRecoveryTests {
    func waitForOpenListen(_ broker: RunningBroker) throws {
        try waitUntil("the listen is on disk") {
            let result = try ChildProcess.run("/usr/bin/sqlite3", arguments: [broker.databasePath, "SELECT count(*) FROM open_listens;"])
            return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        }
    }

    @Test("killed mid-listen and restarted while the player still plays: one asset, the time before, during and after the crash counted")
    func listenContinuesAcrossCrash() async throws {
        let bus = try PrivateBus.start()
        let data = try TemporaryDirectory(prefix: "crash")
        let broker = try RunningBroker(bus: bus, data: data, arguments: ["--min-listen", "1"])
        let player = try await ScriptedPlayer(bus: bus, name: "survivor")
        let clock = ContinuousClock()
        let began = clock.now
        try player.play(title: "Long Song", length: 600_000_000)
        try waitForOpenListen(broker)

        broker.process.signal(SIGKILL)
        #expect(try broker.process.waitForExit(timeout: .seconds(10)) == .signalled(SIGKILL))
        try bus.waitForNameToVanish("org.mediabroker.MediaBroker1")

        let restarted = try RunningBroker(bus: bus, data: data, arguments: ["--min-listen", "1"])
        let client = try restarted.client()
        do {
            try await waitUntil("the restarted broker follows the player again") {
                try await client.nowPlaying().contains { $0.title == "Long Song" }
            }
        } catch {
            Issue.record("broker said: \(restarted.process.standardError)")
            throw error
        }
        // Keep listening a little past the restart: this time must count as well.
        try await clock.sleep(until: clock.now + .milliseconds(1200))
        try player.stop()
        let heard = clock.now - began
        try await waitUntil("the listen is recorded") { try await client.recentMedia().count == 1 }

        let assets = try await client.recentMedia()
        #expect(assets.count == 1)
        #expect(assets.first?.title == "Long Song")
        let listened = try #require(assets.first?.listened)
        #expect(abs((listened - heard) / .seconds(1)) < 0.5, "listened \(listened), heard \(heard)")
        #expect(try restarted.stop() == .exited(0))
    }

    @Test("killed mid-listen and the player is gone by the restart: the listen is finished at its last checkpoint, once")
    func listenFinishedAfterCrash() async throws {
        let bus = try PrivateBus.start()
        let data = try TemporaryDirectory(prefix: "crash2")
        let broker = try RunningBroker(bus: bus, data: data, arguments: ["--min-listen", "1"])
        let player = try await ScriptedPlayer(bus: bus, name: "leaver")
        try player.play(title: "Cut Short", length: 600_000_000)
        try waitForOpenListen(broker)
        // Pausing writes a checkpoint that holds the time heard so far.
        let clock = ContinuousClock()
        try await clock.sleep(until: clock.now + .milliseconds(1500))
        try player.set(["PlaybackStatus": .string("Paused")])
        let client = try broker.client()
        try await waitUntil("the broker sees the pause") {
            try await client.status().players.contains { $0.playbackStatus == "Paused" }
        }
        broker.process.signal(SIGKILL)
        _ = try broker.process.waitForExit(timeout: .seconds(10))
        player.quit()
        try bus.waitForNameToVanish("org.mpris.MediaPlayer2.leaver")

        let restarted = try RunningBroker(bus: bus, data: data, arguments: ["--min-listen", "1"])
        let again = try restarted.client()
        try await waitUntil("the leftover listen is recorded") { try await again.recentMedia().count == 1 }
        let listened = try #require(try await again.recentMedia().first?.listened)
        #expect(listened >= .milliseconds(1400) && listened < .seconds(3), "listened \(listened)")
        try restarted.stop()
        let third = try RunningBroker(bus: bus, data: data, arguments: ["--min-listen", "1"])
        #expect(try await third.client().recentMedia().count == 1, "recorded exactly once")
        try third.stop()
    }
}
