import Foundation
@testable import MediaBroker
import MediaDonationClient
import TestSupport
import Testing

/// Issue 6 §5: damaged, newer, full and read-only history files. The broker says what happened,
/// keeps running where it can, never loses an asset it acknowledged and never damages a file.
@Suite struct ReliabilityBadFilesTests {
    /// Files in `folder` whose name starts with `prefix`.
    func files(in folder: String, startingWith prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasPrefix(prefix) && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.sorted()
    }

    /// The broker replaced a damaged file: it said so, kept the old bytes under a timestamped
    /// name, and a fresh store works.
    func expectMovedAside(_ broker: RunningBroker, original: Data) async throws {
        let log = broker.process.standardError
        #expect(log.contains("is damaged"), "no word about the damage: \(log)")
        let aside = try files(in: broker.data.path, startingWith: "history.sqlite3.corrupt-")
        #expect(aside.count == 1, "moved aside: \(aside)")
        // history.sqlite3.corrupt-20261129T160812Z
        #expect(aside.first?.wholeMatch(of: /history\.sqlite3\.corrupt-\d{8}T\d{6}Z/) != nil, "name \(aside)")
        if let name = aside.first {
            #expect(log.contains(name), "the log names where the file went")
            #expect(FileManager.default.contents(atPath: broker.data.appending(name)) == original, "the damaged bytes are kept as they were")
        }
        let client = try broker.client()
        let id = try await client.donate(Donation(appID: "journal", title: "After the damage"))
        #expect(try await client.recentMedia().map(\.id) == [id])
        #expect(try broker.integrity() == "ok")
        #expect(broker.process.isRunning)
    }

    @Test("a file that is not a database: the broker says so, moves it aside under a timestamped name, starts fresh and keeps running")
    func garbageFile() async throws {
        let bus = try PrivateBus.start()
        let data = try TemporaryDirectory(prefix: "garbage")
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try garbage.write(to: URL(fileURLWithPath: data.appending("history.sqlite3")))
        let broker = try RunningBroker(bus: bus, data: data)
        try await expectMovedAside(broker, original: garbage)
        #expect(try broker.stop() == .exited(0))
    }

    @Test("a truncated database: moved aside, a fresh one started, the broker keeps running")
    func truncatedFile() async throws {
        let bus = try PrivateBus.start()
        let data = try TemporaryDirectory(prefix: "truncated")
        let first = try RunningBroker(bus: bus, data: data)
        let client = try first.client()
        for index in 0..<300 {
            _ = try await client.donate(Donation(appID: "journal", title: "Entry \(index) " + String(repeating: "x", count: 200)))
        }
        #expect(try first.stop() == .exited(0))
        let path = first.databasePath
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        let truncated = try #require(FileManager.default.contents(atPath: path))

        let broker = try first.restarted()
        try await expectMovedAside(broker, original: truncated)
        #expect(try broker.stop() == .exited(0))
    }

    /// A stopped broker's history of `count` donations, its clean stop recorded.
    func stoppedBroker(bus: PrivateBus, prefix: String, count: Int = 300) async throws -> RunningBroker {
        let first = try RunningBroker(bus: bus, data: try TemporaryDirectory(prefix: prefix))
        let client = try first.client()
        for index in 0..<count {
            _ = try await client.donate(Donation(appID: "journal", title: "Entry \(index) " + String(repeating: "x", count: 200)))
        }
        #expect(try first.stop() == .exited(0))
        return first
    }

    /// Overwrites every leaf page of the assets table in place, as a failing disk would, and
    /// returns the damaged file's bytes.
    func damageAssetPages(of broker: RunningBroker) throws -> Data {
        let numbers = try broker.sqlite("PRAGMA page_size; SELECT pageno FROM dbstat WHERE name = 'assets' AND pagetype = 'leaf';")
            .split(separator: "\n").compactMap { Int($0) }
        let pageSize = try #require(numbers.first)
        #expect(numbers.count > 5, "too few pages to damage: \(numbers)")
        let handle = try #require(FileHandle(forWritingAtPath: broker.databasePath))
        for page in numbers.dropFirst() {
            try handle.seek(toOffset: UInt64((page - 1) * pageSize))
            try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        }
        try handle.close()
        return try #require(FileManager.default.contents(atPath: broker.databasePath))
    }

    @Test("a database damaged in place while no broker ran: checked in full at start, moved aside, a fresh one started")
    func damagedWhileStopped() async throws {
        let bus = try PrivateBus.start()
        let first = try await stoppedBroker(bus: bus, prefix: "damaged-stopped")
        let damaged = try damageAssetPages(of: first)
        let broker = try first.restarted()
        // The name comes before the history is opened (calls wait for it): the log line may follow.
        try broker.process.waitForOutput(containing: "checking \(broker.databasePath) in full", in: .standardError, timeout: .seconds(10))
        try await expectMovedAside(broker, original: damaged)
        #expect(try broker.stop() == .exited(0))
    }

    @Test("a page damaged without the file changing (a failing disk): the query that reads it fails with a clear error, the broker keeps running")
    func damagedUnnoticed() async throws {
        let bus = try PrivateBus.start()
        let first = try await stoppedBroker(bus: bus, prefix: "damaged-unnoticed")
        _ = try damageAssetPages(of: first)
        // A disk that loses a page changes none of the file's times: the record still vouches.
        CleanStopRecord.write(database: first.databasePath)
        let broker = try first.restarted()
        let client = try broker.client()
        do {
            _ = try await client.recentMedia()
            Issue.record("the damaged pages were read without an error")
        } catch {
            #expect("\(error)".contains("damaged"), "\(error)")
        }
        #expect(try await client.status().version == MediaBrokerClient.version, "the broker still answers")
        #expect(broker.process.isRunning)
        #expect(broker.logLines(containing: "checking") == 0)
        #expect(try broker.stop() == .exited(0))
    }

    @Test("a database from a newer schema is refused with a clear message and left untouched")
    func newerSchema() throws {
        let bus = try PrivateBus.start()
        let data = try TemporaryDirectory(prefix: "newer")
        let path = data.appending("history.sqlite3")
        let made = try ChildProcess.run("/usr/bin/sqlite3", arguments: [
            path, "PRAGMA journal_mode=DELETE; CREATE TABLE assets(id INTEGER PRIMARY KEY, future TEXT); INSERT INTO assets(future) VALUES('kept'); PRAGMA user_version=99;",
        ])
        #expect(made.status == .exited(0))
        let before = try #require(FileManager.default.contents(atPath: path))
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date

        let broker = try RunningBroker.launch(bus: bus, databasePath: path, arguments: [])
        #expect(try broker.waitForExit(timeout: .seconds(10)) == .exited(1))
        #expect(broker.standardError.contains("schema version 99"), "\(broker.standardError)")
        #expect(FileManager.default.contents(atPath: path) == before, "the newer file was changed")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified)
        let all = try FileManager.default.contentsOfDirectory(atPath: data.path)
        #expect(all == ["history.sqlite3"], "nothing moved aside, no WAL made: \(all)")
    }

    @Test("a full disk: a clear log line, a listen and a donation kept in memory and retried, the donation answered with its id once stored, nothing corrupted",
          .enabled(if: Reliability.canMount, "needs to mount a tmpfs (root)"))
    func fullDisk() async throws {
        let bus = try PrivateBus.start()
        let disk = try SmallFileSystem(size: "2m")
        let broker = try RunningBroker(bus: bus, data: disk.directory, arguments: ["--min-listen", "0"])
        let client = try broker.client()
        _ = try await client.donate(Donation(appID: "journal", title: "Before"))
        let player = try await ScriptedPlayer(bus: bus, name: "filler")
        try player.play(title: "Heard On A Full Disk")
        try waitUntil("the listen is open on disk") { try broker.rows("open_listens") == 1 }
        try disk.fill()
        try player.stop()

        // A client that waits long enough for the retry: the broker answers only once it is stored.
        let patient = try MediaBrokerClient(address: bus.address, timeout: .seconds(60))
        let donation = Task { try await patient.donate(Donation(appID: "journal", title: "During " + String(repeating: "z", count: 3000))) }
        try waitUntil("the broker says it cannot write") { broker.process.standardError.contains("cannot write the history") }
        #expect(broker.process.standardError.contains("kept in memory"))
        // Reading still works meanwhile.
        #expect(try await client.recentMedia().map(\.title) == ["Before"])
        #expect(try broker.rows() == 1)

        try disk.makeRoom()
        let id = try await donation.value
        try await waitUntil("the listen is recorded after the retry") { try await client.recentMedia().count == 3 }
        #expect(try await client.recentMedia().contains { $0.id == id })
        #expect(try broker.rows(where: "title = 'Heard On A Full Disk'") == 1)
        #expect(try broker.rows("open_listens") == 0, "the checkpoint went with the record, in one transaction")
        #expect(try broker.rows(where: "title LIKE 'During %'") == 1, "stored exactly once")
        #expect(try broker.integrity() == "ok")
        try waitUntil("the broker says it can write again") { broker.process.standardError.contains("can be written again") }
        #expect(try broker.stop() == .exited(0))
    }

    @Test("a read-only history folder: refused at start with a clear message and a non-zero exit, the file untouched",
          .enabled(if: Reliability.canMount, "needs to mount a tmpfs (root)"))
    func readOnlyDisk() async throws {
        let bus = try PrivateBus.start()
        let disk = try SmallFileSystem(size: "8m")
        let first = try RunningBroker(bus: bus, data: disk.directory)
        _ = try await first.client().donate(Donation(appID: "journal", title: "Kept"))
        #expect(try first.stop() == .exited(0))
        let before = try #require(FileManager.default.contents(atPath: first.databasePath))
        try disk.remount(readOnly: true)
        defer { try? disk.remount(readOnly: false) }

        let broker = try RunningBroker.launch(bus: bus, databasePath: first.databasePath, arguments: [])
        #expect(try broker.waitForExit(timeout: .seconds(10)) == .exited(1))
        #expect(broker.standardError.contains("cannot open the history database"), "\(broker.standardError)")
        #expect(FileManager.default.contents(atPath: first.databasePath) == before)
        try disk.remount(readOnly: false)
        let again = try first.restarted()
        #expect(try await again.client().recentMedia().map(\.title) == ["Kept"])
        #expect(try again.stop() == .exited(0))
    }
}
