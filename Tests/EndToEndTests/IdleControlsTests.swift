import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issues 34 and 35: the person's controls cost an idle broker nothing. With new apps asked about,
/// a site kept out, recording paused (until resumed, or until a time an hour away), or daily
/// suggestions on, a broker with no player and no caller never wakes: a pause's or a suggestion's
/// one timer is armed for its time, not ticking.
@Suite(.serialized) struct IdleControlsTests {
    /// Context switches of every thread of `pid` so far.
    static func switches(of pid: Int32) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return try tasks.reduce(0) { total, task in
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            return total + status.split(separator: "\n").filter { $0.contains("ctxt_switches:") }
                .compactMap { $0.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
                .reduce(0, +)
        }
    }

    @Test("an idle broker does not wake, whatever the controls say", arguments: ["record", "ask", "site", "paused", "paused-until", "suggestions"])
    func idleStaysAsleep(_ controls: String) async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let client = try broker.client()
        switch controls {
        case "ask": try await client.setNewApps(.ask)
        case "site": try await client.setSiteOptedOut("youtube.com", true)
        case "paused": try await client.pause()
        case "paused-until": try await client.pause(for: .seconds(3600))
        // Issue 35: the daily suggestion's one timer is armed for its time, hours away at most.
        case "suggestions": try await client.setSuggestionTime("04:00")
        default: break
        }
        // What the calls above set in motion settles within a second (the answers are sent, the
        // settings written): the window measured starts after it.
        try await waitUntil("the broker is quiet", timeout: .seconds(20)) {
            let before = try Self.switches(of: broker.process.pid)
            try await Task.sleep(for: .seconds(1))
            return try Self.switches(of: broker.process.pid) == before
        }
        let before = try Self.switches(of: broker.process.pid)
        try await Task.sleep(for: .seconds(3))
        let woke = try Self.switches(of: broker.process.pid) - before
        #expect(woke == 0, "\(controls): \(woke) wake-ups in 3 s")
        #expect(try broker.stop() == .exited(0))
    }
}
