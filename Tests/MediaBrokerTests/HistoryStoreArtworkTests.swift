import Foundation
import Testing
@testable import MediaBroker
@testable import BrokerCore

/// The art files a history keeps: written once per content beside the history, named by the
/// assets that show them, deleted when nothing names them, bounded in total.
@Suite("HistoryStore: artwork files")
struct HistoryStoreArtworkTests {
    static func image(_ seed: UInt8, size: Int = 200) -> SecuredArtwork? {
        SecuredArtwork(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: seed, count: size))
    }

    static func asset(_ title: String, artwork: SecuredArtwork?, folder: TemporaryFolder, started: Microseconds = 1_000) -> MediaAsset {
        var asset = makeAsset(title, started: started)
        asset.artwork = artwork.map { folder.file("artwork/\($0.fileName)") }
        return asset
    }

    static func keep(_ artwork: SecuredArtwork, in store: HistoryStore, now: Microseconds = 1, bound: Int64 = HistoryDatabase.maximumTotalArtworkBytes) async throws {
        try await store.inspect { database throws(SQLiteError) in
            do throws(StoreError) { try database.keepArtwork(artwork, now: now, bound: bound) } catch { throw SQLiteError(code: .constraint, message: "\(error)") }
        }
    }

    static func files(_ folder: TemporaryFolder) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.file("artwork"))) ?? []).sorted()
    }

    @Test("kept art is a private file named by its content, and the asset that names it reads back its path")
    func kept() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let art = try #require(Self.image(1))
        try await Self.keep(art, in: store)
        try await Self.keep(art, in: store)
        _ = try await answer { store.insert(Self.asset("With art", artwork: art, folder: folder), completion: $0) }
        #expect(Self.files(folder) == [art.fileName])
        #expect(try fileBytes(folder.file("artwork/\(art.fileName)")) == Data(art.bytes))
        var info = stat()
        #expect(stat(folder.file("artwork/\(art.fileName)"), &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try await store.recentPage(RecentQuery()).first?.artwork == folder.file("artwork/\(art.fileName)"))
    }

    @Test("an asset naming art that was never kept is stored without art, never pointing at nothing")
    func notKept() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        _ = try await answer { store.insert(Self.asset("Lost art", artwork: Self.image(2), folder: folder), completion: $0) }
        #expect(try await store.recentPage(RecentQuery()).first?.artwork == nil)
    }

    @Test("a purge deletes the art only the purged assets named; art another asset names stays")
    func purge() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let shared = try #require(Self.image(3)), own = try #require(Self.image(4))
        try await Self.keep(shared, in: store)
        try await Self.keep(own, in: store)
        _ = try await answer { store.insert(Self.asset("A", artwork: shared, folder: folder, started: 1), completion: $0) }
        _ = try await answer { store.insert(Self.asset("B", artwork: shared, folder: folder, started: 2), completion: $0) }
        _ = try await answer { store.insert(Self.asset("C", artwork: own, folder: folder, started: 3), completion: $0) }
        _ = try await store.purgedIDs(.range(since: 2, until: nil))
        #expect(Self.files(folder) == [shared.fileName])
        _ = try await store.purgedIDs(.all)
        #expect(Self.files(folder).isEmpty)
    }

    @Test("a listen that never counted leaves no art behind")
    func droppedListen() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let art = try #require(Self.image(5))
        try await Self.keep(art, in: store)
        try await answer { store.saveOpenListen(key: ":1.5 1-1", asset: Self.asset("Skipped", artwork: art, folder: folder), checkpoint: 5, completion: $0) }
        #expect(Self.files(folder) == [art.fileName])
        try await answer { store.removeOpenListen(key: ":1.5 1-1", completion: $0) }
        #expect(Self.files(folder).isEmpty)
    }

    @Test("past the bound, the least recently used art no asset names goes first, then the oldest named, whose asset loses it")
    func bound() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let named = try #require(Self.image(6, size: 1000)), loose = try #require(Self.image(7, size: 1000))
        let newer = try #require(Self.image(8, size: 1000)), newest = try #require(Self.image(9, size: 1000))
        try await Self.keep(named, in: store, now: 1)
        _ = try await answer { store.insert(Self.asset("Named", artwork: named, folder: folder), completion: $0) }
        try await Self.keep(loose, in: store, now: 2)
        try await Self.keep(newer, in: store, now: 3, bound: 2100)
        #expect(Self.files(folder) == [named.fileName, newer.fileName].sorted())
        try await Self.keep(newest, in: store, now: 4, bound: 1100)
        #expect(Self.files(folder) == [newest.fileName])
        #expect(try await store.recentPage(RecentQuery()).first?.artwork == nil)
    }
}
