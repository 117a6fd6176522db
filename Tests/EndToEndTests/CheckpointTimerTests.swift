import Foundation
import TestSupport
import Testing

/// Issue 3's threshold checkpoint, under issue 7's lazy deadline timer: a track change that moves
/// the next deadline later keeps the timer armed for the earlier one, which fires early, finds
/// nothing due and arms the next. The new listen's threshold crossing must still be written when it
/// comes — not only at the next periodic checkpoint, minutes later.
@Suite struct CheckpointTimerTests {
    /// `listened` of the open listen titled `title`, as the broker last wrote it; `nil` before it is
    /// on disk.
    func listened(_ broker: RunningBroker, title: String) throws -> Int64? {
        let result = try ChildProcess.run(
            "/usr/bin/sqlite3", arguments: [broker.databasePath, "SELECT listened FROM open_listens WHERE title = '\(title)';"])
        return Int64(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("a track change that moves the deadline later still gets its threshold checkpoint on time")
    func laterDeadlineIsStillCheckpointed() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "2"])
        let player = try await ScriptedPlayer(bus: bus, name: "laterdeadline")
        let clock = ContinuousClock()
        let firstBegan = clock.now
        try player.play(title: "First", length: 600_000_000)
        try waitUntil("the first listen is on disk") { try listened(broker, title: "First") == 0 }
        // The first listen's threshold is 2 s away when it opens; a second later its timer is armed
        // and due in a second — and the second track's threshold is 2 s away, later than that.
        try await clock.sleep(until: firstBegan + .seconds(1))
        try player.play(title: "Second", length: 600_000_000)
        let secondBegan = clock.now
        try waitUntil("the second listen is on disk") { try listened(broker, title: "Second") != nil }
        try waitUntil("the second listen's threshold crossing is on disk", timeout: .seconds(8)) {
            (try listened(broker, title: "Second") ?? 0) >= 2_000_000
        }
        let took = clock.now - secondBegan
        #expect(took >= .seconds(2), "checkpointed as crossed before 2 s were heard: \(took)")
        #expect(took < .seconds(6), "the crossing was written late: \(took)")
    }
}
