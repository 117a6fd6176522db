import Foundation
import TestSupport
import Testing

/// Issue 3's threshold checkpoint, under issue 7's lazy deadline timer and issue 16's first write:
/// a track change that moves the next deadline later keeps the timer armed for the earlier one,
/// which fires early, finds nothing due and arms the next. The new listen's first write — due at its
/// threshold, which comes before 5 s here — must still happen when it comes, not minutes later.
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
        try await player.waitUntilSeen(by: try broker.client(), as: "Playing")
        // The first listen's first write is 2 s away when it begins; a second later its timer is
        // armed and due in a second — and the second track's is 2 s away, later than that.
        try await clock.sleep(until: firstBegan + .seconds(1))
        try player.play(title: "Second", length: 600_000_000)
        let secondBegan = clock.now
        try waitUntil("the second listen is on disk, having crossed its threshold", timeout: .seconds(8)) {
            (try listened(broker, title: "Second") ?? 0) >= 2_000_000
        }
        let took = clock.now - secondBegan
        #expect(took >= .seconds(2), "written as crossed before 2 s were heard: \(took)")
        #expect(took < .seconds(6), "the first write came late: \(took)")
        #expect(try listened(broker, title: "First") == nil, "a listen heard for a second left a trace")
    }
}
