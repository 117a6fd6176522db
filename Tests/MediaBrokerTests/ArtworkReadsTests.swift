import Foundation
import Testing
import TestSupport
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

/// Art is read off the bus thread in batches: a burst of track changes wakes the reader once, only
/// each player's newest art is read, and only art found is answered.
@Suite("Artwork: reads in batches", .timeLimit(.minutes(1)))
struct ArtworkReadsTests {
    /// The test's own process, on the host: its files are the test's.
    static var me: ConnectedProcess { ConnectedProcess(processID: UInt32(getpid()), startedBy: BootClock.now()) }

    @Test("a burst of requests is one batch: the newest of each player, only what was found")
    func aBurstIsOneBatch() async throws {
        let folder = try TemporaryDirectory()
        for name in ["first.png", "second.png"] {
            try Data(ArtworkReaderTests.png + Array(name.utf8)).write(to: URL(fileURLWithPath: folder.appending(name)))
        }
        let (batches, continuation) = AsyncStream<[ArtworkReads.Found]>.makeStream()
        // The window is the product's: every request below is asked long before it closes.
        let reads = ArtworkReads(window: .milliseconds(300)) { continuation.yield($0) }
        defer { reads.shutdown() }
        let one = PlayerRef(uniqueName: ":1.1", generation: 1), two = PlayerRef(uniqueName: ":1.2", generation: 1)
        reads.ask(.init(player: one, url: "file://" + folder.appending("first.png"), process: Self.me))
        reads.ask(.init(player: one, url: "file://" + folder.appending("second.png"), process: Self.me))
        reads.ask(.init(player: two, url: "file://" + folder.appending("gone.png"), process: Self.me))
        var iterator = batches.makeAsyncIterator()
        let batch = try #require(await iterator.next())
        #expect(batch.map(\.url) == ["file://" + folder.appending("second.png")])
        #expect(batch.first?.player == one)
    }

    @Test("a request after a batch starts the next one")
    func theReaderWakesAgain() async throws {
        let folder = try TemporaryDirectory()
        try Data(ArtworkReaderTests.png).write(to: URL(fileURLWithPath: folder.appending("cover.png")))
        let (batches, continuation) = AsyncStream<[ArtworkReads.Found]>.makeStream()
        let reads = ArtworkReads(window: .zero) { continuation.yield($0) }
        defer { reads.shutdown() }
        let player = PlayerRef(uniqueName: ":1.1", generation: 1)
        var iterator = batches.makeAsyncIterator()
        // Three URLs of one file, as a player might tell it again.
        for name in ["cover.png", "cover%2Epng", "%63over.png"] {
            let url = "file://" + folder.appending(name)
            reads.ask(.init(player: player, url: url, process: Self.me))
            #expect(try #require(await iterator.next()).map(\.url) == [url])
        }
    }
}
