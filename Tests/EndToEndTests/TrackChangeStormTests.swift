import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// Issue 16, the fast case CI runs (scripts/reliability's `storm` runs the long ones): a player that
/// changes track as fast as it can, with realistic metadata, makes the broker hold nothing — no
/// store work for tracks nobody heard, a bounded heap — while a real listen on another player is
/// recorded exactly once and RecentMedia keeps answering.
@Suite struct TrackChangeStormTests {
    static let changes = 100_000
    /// The peak RSS target of the issue, in kB.
    static let peakRSSLimit = 32 * 1024

    @Test("100,000 distinct track changes: peak RSS ≤ 32 MB, nothing stored, a real listen beside them recorded once")
    func stormOfTrackChanges() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "2"])
        // Calls wait behind the signals queued before them (one ordered stream per connection), so
        // a debug build on a busy machine may answer slowly; the latency target is measured on the
        // release build by scripts/reliability's `storm`. Here every call must be answered.
        let client = try MediaBrokerClient(address: bus.address, timeout: .seconds(60))
        let storm = try await ScriptedPlayer(bus: bus, name: "storm")
        let real = try await ScriptedPlayer(bus: bus, name: "real")
        try await storm.waitUntilFollowed(by: client)
        try await real.waitUntilFollowed(by: client)

        let heard = Task { try await real.playThrough(ScriptedPlayer.metadata(title: "Heard Beside The Storm"), for: .seconds(4), seenBy: client) }
        let asking = Task {
            var answered = 0
            while !Task.isCancelled {
                _ = try await client.recentMedia(limit: 50)
                answered += 1
            }
            return answered
        }
        for index in 0..<Self.changes {
            try storm.set([
                "Metadata": ScriptedPlayer.metadata(
                    title: "Storm \(index)", artist: "The Load Generator Ensemble", album: "Storm Sessions",
                    length: 180_000_000 + Int64(index % 7) * 23_000_000, trackID: "/org/mpris/MediaPlayer2/Track/\(index)",
                    extra: ["xesam:url": .string("file:///home/listener/Music/Storm%20Sessions/\(index).flac"),
                            "mpris:artUrl": .string("file:///home/listener/.cache/covers/\(index).jpg"),
                            "xesam:trackNumber": .int32(Int32(index % 20 + 1))]),
                "PlaybackStatus": .string("Playing"),
            ])
        }
        // The last track ends too, heard for microseconds like the others. The bus and the broker
        // keep one sender's messages in order: once this call is answered, all of them were handled.
        try storm.stop()
        try await Reliability.sync(storm.connection)
        _ = try await heard.value
        asking.cancel()
        let answered = try await asking.value
        try await real.waitUntilSeen(by: client, as: "Stopped")

        let peak = try Reliability.status(broker.process.pid, "VmHWM")
        #expect(peak <= Self.peakRSSLimit, "peak RSS \(peak) kB over \(Self.changes) track changes")
        #expect(answered > 0, "RecentMedia answered during the storm")
        try await waitUntil("the real listen is recorded") {
            try await client.recentMedia().contains { $0.title == "Heard Beside The Storm" }
        }
        #expect(try await client.recentMedia(limit: 1000).map(\.title) == ["Heard Beside The Storm"])
        #expect(try broker.rows("open_listens") == 0, "a track heard for microseconds left an open listen")
        // No store work for tracks nobody heard: writing an open listen per change would have
        // pushed megabytes through the write-ahead log (it is kept to 4 MB after checkpoints).
        let wal = try FileManager.default.attributesOfItem(atPath: broker.databasePath + "-wal")[.size] as? Int ?? 0
        #expect(wal < 512 * 1024, "the write-ahead log grew to \(wal) bytes")
        try broker.stop()
    }
}
