import Foundation
import Testing
@testable import MediaBroker
@testable import BrokerCore

/// Correcting a kept listen in the store (issue 34, §3): readers see the corrected words, the
/// first words are kept through corrections until an undo puts them back, and nothing of an edit
/// outlives its asset.
@Suite("HistoryStore: corrections and their undo")
struct HistoryStoreEditsTests {
    @Test("a correction is what readers see; an undo puts back the words first recorded, however many corrections came between")
    func editAndUndo() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let told = makeAsset("Teardorp", artists: ["Massive Atack"])
        let id = try await answer { store.insert(told, completion: $0) }.id
        let first = try await answer { store.edit(id, with: MediaCorrection(title: "Teardrop"), at: 10, completion: $0) }
        #expect(first?.asset.title == "Teardrop" && first?.asset.artists == ["Massive Atack"] && first?.rules == nil)
        _ = try await answer {
            store.edit(id, with: MediaCorrection(artists: ["Massive Attack"], album: .some("Mezzanine")), at: 20, completion: $0)
        }
        let read = try #require(try await store.recentPage(RecentQuery()).first)
        #expect(read.title == "Teardrop" && read.artists == ["Massive Attack"] && read.album == "Mezzanine")

        let undone = try await answer { store.undoEdit(id, completion: $0) }
        #expect(undone?.title == "Teardorp" && undone?.artists == ["Massive Atack"] && undone?.album == told.album)
        #expect(try await store.recentPage(RecentQuery()).first?.title == "Teardorp")
        #expect(try await answer { store.undoEdit(id, completion: $0) } == nil, "nothing left to undo")
    }

    @Test("an asset the history does not hold is no edit")
    func missingAsset() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        #expect(try await answer { store.edit(42, with: MediaCorrection(title: "X"), at: 1, completion: $0) } == nil)
        #expect(try await answer { store.undoEdit(42, completion: $0) } == nil)
    }

    @Test("purging an edited asset takes its kept original with it")
    func purgeTakesTheOriginal() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let id = try await answer { store.insert(makeAsset("Private original"), completion: $0) }.id
        _ = try await answer { store.edit(id, with: MediaCorrection(title: "Corrected"), at: 1, completion: $0) }
        _ = try await answer { store.purge(.all, onBatch: { _ in }, completion: $0) }
        let left = try await store.inspect { database throws(SQLiteError) in try database.connection.scalarInt("SELECT count(*) FROM edits") }
        #expect(left == 0)
    }
}
