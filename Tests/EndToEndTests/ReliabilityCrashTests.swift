import Foundation
import MediaDonationClient
import Synchronization
import SwiftDBus
import TestSupport
import Testing

/// Issue 6 §4: `kill -9` at random moments while a player finishes listens and an app donates.
/// After each restart every asset the broker acknowledged — a `Donate` reply's id, a `MediaAdded`
/// signal — is in the database exactly once, and `PRAGMA integrity_check` passes.
///
/// CI runs 3 rounds; `scripts/reliability` runs 50 (`RELIABILITY_CRASH_ROUNDS=50`), 200 listens
/// and donations offered per round (`RELIABILITY_CRASH_LOAD`), so 10,000 in all.
@Suite struct ReliabilityCrashTests {
    static let environment = ProcessInfo.processInfo.environment
    static let rounds = environment["RELIABILITY_CRASH_ROUNDS"].flatMap(Int.init) ?? 3
    static let load = environment["RELIABILITY_CRASH_LOAD"].flatMap(Int.init) ?? 200

    /// What the broker acknowledged in one round: title → id.
    final class Acknowledged: Sendable {
        let assets = Mutex<[String: Int64]>([:])
        func add(_ title: String, _ id: Int64) { assets.withLock { $0[title] = id } }
        var snapshot: [String: Int64] { assets.withLock { $0 } }
    }

    @Test("kill -9 during a stream of listens and donations: every acknowledged asset is there exactly once, the file is sound")
    func killDuringStream() async throws {
        let bus = try PrivateBus.start()
        let data = try TemporaryDirectory(prefix: "crash-stream")
        let player = try await ScriptedPlayer(bus: bus, name: "crashplayer")
        var everything: [String: Int64] = [:]
        var offered = 0
        var lastRound = ""
        for round in 0..<Self.rounds {
            let broker = try RunningBroker(bus: bus, data: data, arguments: ["--min-listen", "0"])
            let acknowledged = Acknowledged()
            let listener = try MediaBrokerClient(address: bus.address, timeout: .seconds(5))
            let added = try await listener.mediaAdded()
            let watching = Task {
                for await media in added where media.id != GenericMedia.notRecorded { if let title = media.title { acknowledged.add(title, media.id) } }
            }
            let donor = try broker.client()
            let donating = Task {
                for index in 0..<Self.load / 2 {
                    let title = "donation \(round).\(index)"
                    guard let id = try? await donor.donate(Donation(appID: "donor", title: title)) else { break }
                    acknowledged.add(title, id)
                }
            }
            let playing = Task {
                for index in 0..<Self.load / 2 {
                    try player.play(title: "listen \(round).\(index)")
                    try await Task.sleep(for: .milliseconds(2))
                    try player.stop()
                    try await Task.sleep(for: .milliseconds(2))
                }
            }
            offered += Self.load
            // A random moment inside the stream.
            try await Task.sleep(for: .milliseconds(Int.random(in: 20...400)))
            broker.process.signal(SIGKILL)
            #expect(try broker.process.waitForExit(timeout: .seconds(10)) == .signalled(SIGKILL))
            donating.cancel()
            playing.cancel()
            _ = await playing.result
            _ = await donating.result
            // The player stops while the broker is down. (Left playing, the clean stop after the
            // restart would end its listen and the next round's broker would start a second one
            // of the same play-through: a split that is the tracker's to avoid, not a crash loss.)
            try player.stop()
            watching.cancel()
            try bus.waitForNameToVanish("org.mediabroker.MediaBroker1")
            for (title, id) in acknowledged.snapshot { everything[title] = id }

            let restarted = try RunningBroker(bus: bus, data: data, arguments: ["--min-listen", "0"])
            // The restart finishes leftover listens; the check reads the file after a clean stop.
            #expect(try restarted.stop() == .exited(0))
            let stored = try Self.storedAssets(restarted)
            let lost = everything.filter { title, id in stored[title]?.contains(id) != true }
            let doubled = stored.filter { $0.value.count > 1 }
            #expect(lost.isEmpty, "round \(round): acknowledged but missing: \(lost.keys.sorted().prefix(10))")
            #expect(doubled.isEmpty, "round \(round): stored more than once: \(doubled.keys.sorted().prefix(10))")
            #expect(try restarted.integrity() == "ok", "round \(round)")
            lastRound = "\(round + 1) rounds, \(offered) offered, \(everything.count) acknowledged, \(stored.count) stored, lost \(lost.count), duplicates \(doubled.count)"
        }
        // One line for scripts/reliability's table.
        print("reliability-crash: \(lastRound)")
    }

    /// Every stored asset: title → its ids (one, unless something was stored twice).
    static func storedAssets(_ broker: RunningBroker) throws -> [String: [Int64]] {
        let dump = try broker.sqlite("SELECT id || '|' || title FROM assets;")
        var stored: [String: [Int64]] = [:]
        for line in dump.split(separator: "\n") {
            guard let bar = line.firstIndex(of: "|"), let id = Int64(line[..<bar]) else { continue }
            stored[String(line[line.index(after: bar)...]), default: []].append(id)
        }
        return stored
    }
}
