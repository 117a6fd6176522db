import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 34 §1 on real parts: "don't record for a while" stops real mpv's listens and donations,
/// survives a restart, is ended by `broker-ctl resume`, and ends by itself at its time.
@Suite(.serialized) struct PauseEndToEndTests {
    /// Plays a 3 s track in mpv to its end and waits until the broker let the player go.
    static func play(_ title: String, on bus: PrivateBus, broker: RunningBroker, in media: TemporaryDirectory) async throws {
        let track = media.appending("\(title).ogg")
        try AudioFixture.makeTaggedTrack(at: track, title: title, artist: "Erik Satie", album: "Pauses", seconds: 3)
        let player = try MPVPlayer.launch(playing: [track], on: bus)
        #expect(try player.process.waitForExit(timeout: .seconds(20)) == .exited(0))
        try await broker.waitUntilNoPlayers(try broker.client())
    }

    @Test("while paused mpv's listen and a donation are not recorded, and status says until when; the pause survives a restart; resumed, the next listen is recorded")
    func aPauseStopsRecordingUntilResumed() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let media = try TemporaryDirectory(prefix: "media")

        let paused = try broker.brokerCtl(["pause", "1h", "--json"])
        #expect(paused.status == .exited(0), "\(paused.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(paused.standardOutput.utf8)) as? [String: Any])
        #expect(json["paused"] as? Bool == true)
        #expect(json["paused_until"] is String, "\(json)")
        let status = try broker.brokerCtl(["status"])
        #expect(status.standardOutput.contains("Recording: paused until "), "\(status.standardOutput)")

        try await Self.play("While Paused", on: bus, broker: broker, in: media)
        let client = try broker.client()
        #expect(try await client.recentMedia().isEmpty)
        await #expect(throws: MediaBrokerError.paused) { _ = try await client.donate(Donation(appID: "journal", title: "Paused")) }

        #expect(try broker.stop() == .exited(0))
        let restarted = try RunningBroker(bus: bus, data: broker.data)
        guard case .until(let end)? = try await restarted.client().currentPause() else {
            Issue.record("the pause did not survive the restart")
            return
        }
        #expect(end > Date().addingTimeInterval(50 * 60))

        let resumed = try restarted.brokerCtl(["resume"])
        #expect(resumed.standardOutput == "Recording again.\n", "\(resumed.standardError)")
        try await Self.play("After Resume", on: bus, broker: restarted, in: media)
        #expect(try await restarted.client().recentMedia().map(\.title) == ["After Resume"])
        #expect(try restarted.stop() == .exited(0))
    }

    @Test("a pause ends by itself at its time, and what plays after it is recorded; a bad pause is refused and changes nothing")
    func aPauseEndsByItself() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let media = try TemporaryDirectory(prefix: "media")
        let client = try broker.client()

        for bad in [["pause", "0s"], ["pause", "ten"], ["pause", "1h", "--until", "23:00"], ["pause", "--until", "2001-01-01"]] {
            let refused = try broker.brokerCtl(bad)
            #expect(refused.status == .exited(64), "\(bad): \(refused.standardOutput)")
        }
        await #expect(throws: MediaBrokerError.self) { try await client.pause(for: .seconds(-1)) }
        #expect(try await client.currentPause() == nil)

        try await client.pause(for: .seconds(2))
        #expect(try await client.currentPause() != nil)
        try await waitUntil("the pause ended by itself", timeout: .seconds(20)) { try await client.currentPause() == nil }
        try await Self.play("After The Pause", on: bus, broker: broker, in: media)
        #expect(try await client.recentMedia().map(\.title) == ["After The Pause"])
        #expect(try broker.stop() == .exited(0))
    }
}
