import Foundation
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

/// When the daemon may skip `PRAGMA quick_check` at start: only for files exactly as its last clean
/// stop left them.
@Suite struct CleanStopRecordTests {
    /// A database with a few assets, closed as a clean stop closes it.
    func closedStore(in folder: TemporaryFolder) async throws -> String {
        let path = folder.file("history.sqlite3")
        let store = try HistoryStore(path: path)
        _ = try await answer { store.insert(contentsOf: (0..<50).map { makeAsset("Song \($0)", started: 1_700_000_000_000_000 + Int64($0)) }, completion: $0) }
        store.close()
        return path
    }

    /// The file system stamps times from a coarse clock (a few milliseconds a tick): waits until a
    /// change made now gets a later time than the database's, or a change could go unseen here
    /// for reasons that have nothing to do with the code under test.
    func waitForTheFileClockToPass(_ path: String) throws {
        let probe = path + ".probe"
        defer { unlink(probe) }
        try waitUntil("the file-system clock moved on") {
            guard FileManager.default.createFile(atPath: probe, contents: Data([1])) else { return false }
            return changeTime(of: probe) > changeTime(of: path)
        }
    }

    func changeTime(of path: String) -> Double {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
    }

    @Test func aRecordWrittenAfterTheCloseVouchesForTheUnchangedFilesOnce() async throws {
        let folder = try TemporaryFolder()
        let path = try await closedStore(in: folder)
        CleanStopRecord.write(database: path)
        #expect(fileExists(CleanStopRecord.path(for: path)))
        #expect(CleanStopRecord.take(database: path))
        #expect(!fileExists(CleanStopRecord.path(for: path)), "taken at start, so a crash from here on leaves none")
        #expect(!CleanStopRecord.take(database: path), "a second start without a clean stop in between checks")
    }

    @Test func withoutARecordTheFileIsChecked() async throws {
        let folder = try TemporaryFolder()
        let path = try await closedStore(in: folder)
        #expect(!CleanStopRecord.take(database: path))
    }

    enum Change: String, CaseIterable, Sendable {
        case overwrittenInPlace, grown, truncated, replacedByACopy, walAppeared, movedAway

        func apply(to path: String) throws {
            switch self {
            case .overwrittenInPlace:
                let handle = try #require(FileHandle(forWritingAtPath: path))
                try handle.seek(toOffset: 8192)
                try handle.write(contentsOf: Data(repeating: 0x55, count: 16))
                try handle.close()
            case .grown:
                let handle = try #require(FileHandle(forWritingAtPath: path))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(repeating: 0, count: 4096))
                try handle.close()
            case .truncated:
                #expect(truncate(path, 4096) == 0)
            case .replacedByACopy:
                try FileManager.default.copyItem(atPath: path, toPath: path + ".copy")
                #expect(rename(path + ".copy", path) == 0)
            case .walAppeared:
                #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data(repeating: 0, count: 32)))
            case .movedAway:
                #expect(rename(path, path + ".elsewhere") == 0)
            }
        }
    }

    @Test("a file changed after the clean stop is checked", arguments: Change.allCases)
    func changedFilesAreChecked(change: Change) async throws {
        let folder = try TemporaryFolder()
        let path = try await closedStore(in: folder)
        CleanStopRecord.write(database: path)
        try waitForTheFileClockToPass(path)
        try change.apply(to: path)
        #expect(!CleanStopRecord.take(database: path))
    }

    @Test func aPageDamagedInPlaceWithoutTheCheckFailsTheQueryThatReadsItAndNothingElse() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("history.sqlite3")
        do {
            let store = try HistoryStore(path: path)
            _ = try await answer { store.insert(contentsOf: (0..<400).map {
                makeAsset("Song \($0) " + String(repeating: "x", count: 200), started: 1_700_000_000_000_000 + Int64($0))
            }, completion: $0) }
            try await answer { store.setSetting("kept", "yes", completion: $0) }
            store.close()
        }
        // Every page of the assets table but its root, as a failing disk would damage them.
        let query = try ChildProcess.run("/usr/bin/sqlite3", arguments: [
            path, "PRAGMA page_size; SELECT pageno FROM dbstat WHERE name = 'assets' AND pagetype = 'leaf';",
        ])
        let numbers = query.standardOutput.split(separator: "\n").compactMap { Int($0) }
        let pageSize = try #require(numbers.first, "\(query.standardError)")
        let leaves = numbers.dropFirst()
        #expect(leaves.count > 5, "\(query.standardOutput) \(query.standardError)")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        for page in leaves {
            try handle.seek(toOffset: UInt64((page - 1) * pageSize))
            try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        }
        try handle.close()

        let store = try HistoryStore(path: path, checkIntegrity: false)
        #expect(try await answer { store.setting("kept", completion: $0) } == "yes", "what the damage did not reach still reads")
        do {
            _ = try await store.recentPage(RecentQuery())
            Issue.record("the damaged pages were read without an error")
        } catch {
            guard case .corrupt = error else { Issue.record("not reported as damage: \(error)"); return }
        }
    }
}
