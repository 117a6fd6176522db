import Testing
@testable import MediaBroker

@Suite("HistoryStore: listens in progress and settings")
struct HistoryStoreOpenListenTests {
    @Test func openListensRoundTripWithTheirCheckpoints() async throws {
        let store = try HistoryStore.inMemory()
        let first = makeAsset("One", started: 10)
        let second = MediaAsset(title: "Two", appID: "vlc", started: 20, ended: 20, listened: 0, source: .mpris)
        try await store.saveOpenListen(key: ":1.42@10", asset: first, checkpoint: 111)
        try await store.saveOpenListen(key: ":1.43@20", asset: second, checkpoint: 222)
        #expect(try await store.openListens() == [
            OpenListen(key: ":1.42@10", asset: first, checkpoint: 111),
            OpenListen(key: ":1.43@20", asset: second, checkpoint: 222),
        ])
    }

    @Test func aLaterCheckpointReplacesTheEarlierOne() async throws {
        let store = try HistoryStore.inMemory()
        var asset = makeAsset()
        try await store.saveOpenListen(key: "k", asset: asset, checkpoint: 1)
        asset.listened += 30_000_000
        asset.album = nil
        try await store.saveOpenListen(key: "k", asset: asset, checkpoint: 2)
        #expect(try await store.openListens() == [OpenListen(key: "k", asset: asset, checkpoint: 2)])
    }

    @Test func removingAnOpenListenRecordsNothing() async throws {
        let store = try HistoryStore.inMemory()
        try await store.saveOpenListen(key: "k", asset: makeAsset(), checkpoint: 1)
        try await store.removeOpenListen(key: "k")
        #expect(try await store.openListens().isEmpty)
        #expect(try await store.count() == 0)
    }

    @Test func finishingRecordsTheAssetAndForgetsTheListen() async throws {
        let store = try HistoryStore.inMemory()
        let asset = makeAsset()
        try await store.saveOpenListen(key: "k", asset: asset, checkpoint: 1)
        let outcome = try await store.finishOpenListen(key: "k", asset: asset)
        #expect(outcome.wasNew)
        #expect(try await store.openListens().isEmpty)
        #expect(try await store.recent(RecentQuery()) == [stored(asset, id: outcome.id)])
    }

    @Test func aFailedFinishKeepsTheOpenListenAndRecordsNothing() async throws {
        let store = try HistoryStore.inMemory()
        try await store.saveOpenListen(key: "k", asset: makeAsset(), checkpoint: 1)
        // Make the delete half of the transaction fail after the insert half has run.
        try await store.inspect { database throws(SQLiteError) in
            try database.connection.execute("""
                CREATE TEMP TRIGGER refuse BEFORE DELETE ON open_listens BEGIN SELECT RAISE(ABORT, 'refused'); END
                """)
        }
        await #expect(throws: StoreError.self) { try await store.finishOpenListen(key: "k", asset: makeAsset()) }
        #expect(try await store.count() == 0)
        #expect(try await store.openListens().map(\.key) == ["k"])
    }

    @Test func settingsRoundTripOverwriteAndRemove() async throws {
        let store = try HistoryStore.inMemory()
        #expect(try await store.setting("media-enabled") == nil)
        try await store.setSetting("media-enabled", "true")
        try await store.setSetting("retention-days", "90")
        try await store.setSetting("media-enabled", "false")
        #expect(try await store.setting("media-enabled") == "false")
        #expect(try await store.setting("retention-days") == "90")
        try await store.setSetting("retention-days", nil)
        #expect(try await store.setting("retention-days") == nil)
    }
}
