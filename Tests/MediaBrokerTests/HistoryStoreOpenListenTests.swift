import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

@Suite("HistoryStore: listens in progress and settings")
struct HistoryStoreOpenListenTests {
    @Test func openListensRoundTripWithTheirCheckpoints() async throws {
        let store = try HistoryStore.inMemory()
        let first = makeAsset("One", started: 10)
        let second = MediaAsset(title: "Two", appID: "vlc", started: 20, ended: 20, listened: 0, source: .mpris)
        try await answer { store.saveOpenListen(key: ":1.42@10", asset: first, checkpoint: 111, completion: $0) }
        try await answer { store.saveOpenListen(key: ":1.43@20", asset: second, checkpoint: 222, completion: $0) }
        #expect(try await answer { store.openListens(completion: $0) } == [
            OpenListen(key: ":1.42@10", asset: first, checkpoint: 111),
            OpenListen(key: ":1.43@20", asset: second, checkpoint: 222),
        ])
    }

    @Test func aLaterCheckpointReplacesTheEarlierOne() async throws {
        let store = try HistoryStore.inMemory()
        var asset = makeAsset()
        try await answer { store.saveOpenListen(key: "k", asset: asset, checkpoint: 1, completion: $0) }
        asset.listened += 30_000_000
        asset.album = nil
        try await answer { store.saveOpenListen(key: "k", asset: asset, checkpoint: 2, completion: $0) }
        #expect(try await answer { store.openListens(completion: $0) } == [OpenListen(key: "k", asset: asset, checkpoint: 2)])
    }

    @Test func removingAnOpenListenRecordsNothing() async throws {
        let store = try HistoryStore.inMemory()
        try await answer { store.saveOpenListen(key: "k", asset: makeAsset(), checkpoint: 1, completion: $0) }
        try await answer { store.removeOpenListen(key: "k", completion: $0) }
        #expect(try await answer { store.openListens(completion: $0) }.isEmpty)
        #expect(try await answer { store.count(completion: $0) } == 0)
    }

    @Test func finishingRecordsTheAssetAndForgetsTheListen() async throws {
        let store = try HistoryStore.inMemory()
        let asset = makeAsset()
        try await answer { store.saveOpenListen(key: "k", asset: asset, checkpoint: 1, completion: $0) }
        let outcome = try await answer { store.finishOpenListen(key: "k", asset: asset, completion: $0) }
        #expect(outcome.wasNew)
        #expect(try await answer { store.openListens(completion: $0) }.isEmpty)
        #expect(try await store.recentPage(RecentQuery()) == [stored(asset, id: outcome.id)])
    }

    @Test func aFailedFinishKeepsTheOpenListenAndRecordsNothing() async throws {
        let store = try HistoryStore.inMemory()
        try await answer { store.saveOpenListen(key: "k", asset: makeAsset(), checkpoint: 1, completion: $0) }
        // Make the delete half of the transaction fail after the insert half has run.
        try await store.inspect { database throws(SQLiteError) in
            try database.connection.execute("""
                CREATE TEMP TRIGGER refuse BEFORE DELETE ON open_listens BEGIN SELECT RAISE(ABORT, 'refused'); END
                """)
        }
        await #expect(throws: StoreError.self) { try await answer { store.finishOpenListen(key: "k", asset: makeAsset(), completion: $0) } }
        #expect(try await answer { store.count(completion: $0) } == 0)
        #expect(try await answer { store.openListens(completion: $0) }.map(\.key) == ["k"])
    }

    @Test func settingsRoundTripOverwriteAndRemove() async throws {
        let store = try HistoryStore.inMemory()
        #expect(try await answer { store.setting("media-enabled", completion: $0) } == nil)
        try await answer { store.setSetting("media-enabled", "true", completion: $0) }
        try await answer { store.setSetting("retention-days", "90", completion: $0) }
        try await answer { store.setSetting("media-enabled", "false", completion: $0) }
        #expect(try await answer { store.setting("media-enabled", completion: $0) } == "false")
        #expect(try await answer { store.setting("retention-days", completion: $0) } == "90")
        try await answer { store.setSetting("retention-days", nil, completion: $0) }
        #expect(try await answer { store.setting("retention-days", completion: $0) } == nil)
    }
}
