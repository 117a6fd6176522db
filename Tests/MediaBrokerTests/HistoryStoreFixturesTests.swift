import Foundation
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

// Shared fixtures for the HistoryStore tests: assets, temporary folders, and a way to look inside
// the store's own connection (per-connection pragmas, query plans) from a test.

/// An asset with every field set to something plausible, `started` as given.
func makeAsset(
    _ title: String = "Song", app: String = "mpv", started: Microseconds = 1_700_000_000_000_000,
    artists: [String] = ["Artist"]
) -> MediaAsset {
    MediaAsset(
        title: title, artists: artists, album: "Album", appID: app, appName: "App \(app)",
        appIcon: "/usr/share/icons/\(app).png", started: started, ended: started + 200_000_000,
        listened: 180_000_000, length: 210_000_000, kind: .music, source: .mpris)
}

/// `asset` as the store returns it: with its id.
func stored(_ asset: MediaAsset, id: Int64) -> MediaAsset {
    var copy = asset
    copy.id = id
    return copy
}

/// A fresh folder under the system's temporary folder, removed when the value goes.
final class TemporaryFolder {
    let path: String

    init() throws {
        let template = NSTemporaryDirectory() + "history-store-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}

/// The file's bytes, read with stdio: `Data(contentsOf:)` leaks its buffer for empty files on this
/// toolchain, which AddressSanitizer's leak check reports.
func fileBytes(_ path: String) throws -> Data {
    guard let file = fopen(path, "rb") else { throw CocoaError(.fileReadNoSuchFile) }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes += chunk[..<count]
    }
    return Data(bytes)
}

func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

extension HistoryStore {
    /// Runs `body` on the store thread with the store's own database: for pragmas that are set per
    /// connection and for query plans.
    func inspect<T: Sendable>(
        _ body: @escaping @Sendable (HistoryDatabase) throws(SQLiteError) -> T
    ) async throws(StoreError) -> T {
        try await answer { completion in
            perform({ database throws(StoreError) in try database.sql { () throws(SQLiteError) in try body(database) } },
                    completion: completion)
        }
    }

    /// What `EXPLAIN QUERY PLAN` says of `sql`, one line per step.
    func queryPlan(_ sql: String) async throws(StoreError) -> [String] {
        try await inspect { database throws(SQLiteError) in
            try database.connection.prepare("EXPLAIN QUERY PLAN " + sql).use { statement throws(SQLiteError) in
                try statement.rows { $0.text(at: 3) ?? "" }
            }
        }
    }

    /// The first column of the first row of `sql`, on the store's connection.
    func pragma(_ sql: String) async throws(StoreError) -> String? {
        try await inspect { database throws(SQLiteError) in try database.connection.scalarText(sql) }
    }
}

/// Inserts `count` assets of `apps` in turn, one second apart from `start`, in one batch.
@discardableResult
func fill(
    _ store: HistoryStore, count: Int, apps: [String] = ["mpv"], start: Microseconds = 1_700_000_000_000_000
) async throws -> [InsertOutcome] {
    let assets = (0..<count).map { index in
        makeAsset("Track \(index)", app: apps[index % apps.count], started: start + Int64(index) * 1_000_000)
    }
    return try await answer { store.insert(contentsOf: assets, completion: $0) }
}


/// The answer of a store operation in its callback form, awaited.
func answer<T: Sendable>(_ start: (@escaping @Sendable (Result<T, StoreError>) -> Void) -> Void) async throws(StoreError) -> T {
    let result = await withCheckedContinuation { (done: CheckedContinuation<Result<T, StoreError>, Never>) in
        start { done.resume(returning: $0) }
    }
    return try result.get()
}

/// The history's reads and purges as tests ask for them, each through the one form the broker uses.
extension HistoryStore {
    /// Records `assets` as the broker records one event's listens — each `insert`, all in one unit
    /// (`together`: one transaction) — and hands back their outcomes in order, or the first failure.
    func insert(contentsOf assets: [MediaAsset], completion: @escaping @Sendable (Result<[InsertOutcome], StoreError>) -> Void) {
        guard !assets.isEmpty else { return completion(.success([])) }
        let results = Locked<[Result<InsertOutcome, StoreError>?]>(Array(repeating: nil, count: assets.count))
        together {
            for (index, asset) in assets.enumerated() {
                insert(asset) { result in
                    let all = results.withLock { results in
                        results[index] = result
                        return results.contains { $0 == nil } ? nil : results.compactMap { $0 }
                    }
                    guard let all else { return }
                    completion(Result { () throws(StoreError) in try all.map { result throws(StoreError) in try result.get() } })
                }
            }
        }
    }

    /// `RecentMedia`'s page, read on the store's thread (the reader's fallback); `.unknownCursor`
    /// when `query.beforeID` names no asset.
    func recentPage(_ query: RecentQuery) async throws(StoreError) -> [MediaAsset] {
        guard let page = try await answer({ read({ history throws(SQLiteError) in try history.recent(query) }, completion: $0) }) else {
            throw .unknownCursor(query.beforeID ?? 0)
        }
        return page
    }

    /// `Moments`' page, read on the store's thread; `.unknownCursor` when `query.before` names no asset.
    func momentsPage(_ query: MomentsQuery, localTime: LocalTime) async throws(StoreError) -> [Moment] {
        let moments = try await answer {
            read({ history throws(SQLiteError) in try history.moments(query, localTime: localTime) }, completion: $0)
        }
        guard let moments else { throw .unknownCursor(query.before ?? 0) }
        return moments
    }

    /// Every id `purge` deletes, oldest first, gathered from its batches.
    func purgedIDs(_ scope: PurgeScope) async throws(StoreError) -> [Int64] {
        let ids = Locked<[Int64]>([])
        _ = try await answer { purge(scope, onBatch: { batch in ids.withLock { $0 += batch } }, completion: $0) }
        return ids.withLock { $0 }
    }

    /// Every id retention deletes with `cutoff`, oldest first.
    func expiredIDs(olderThan cutoff: Microseconds) async throws(StoreError) -> [Int64] {
        let ids = Locked<[Int64]>([])
        _ = try await answer { expire(olderThan: cutoff, onBatch: { batch in ids.withLock { $0 += batch } }, completion: $0) }
        return ids.withLock { $0 }
    }
}
