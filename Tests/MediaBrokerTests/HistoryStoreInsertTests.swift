import Glibc
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

@Suite("HistoryStore: recording assets")
struct HistoryStoreInsertTests {
    @Test func everyFieldRoundTrips() async throws {
        let store = try HistoryStore.inMemory()
        let asset = MediaAsset(
            title: "Title", artists: ["One", "Two"], album: "Album", appID: "org.gnome.Lollypop",
            appName: "Lollypop", appIcon: "/usr/share/icons/lollypop.svg", started: -5, ended: 10,
            listened: 7, length: 99, kind: .podcast, source: .donation)
        let outcome = try await answer { store.insert(asset, completion: $0) }
        #expect(outcome.wasNew)
        #expect(try await store.recentPage(RecentQuery()) == [stored(asset, id: outcome.id)])
    }

    @Test func absentFieldsRoundTripAsNil() async throws {
        let store = try HistoryStore.inMemory()
        let asset = MediaAsset(
            title: "Bare", appID: "vlc", started: 1, ended: 1, listened: 0, source: .mpris)
        let outcome = try await answer { store.insert(asset, completion: $0) }
        let back = try #require(try await store.recentPage(RecentQuery()).first)
        #expect(back == stored(asset, id: outcome.id))
        #expect(back.artists.isEmpty && back.album == nil && back.appName == nil && back.appIcon == nil)
        #expect(back.length == nil && back.kind == nil)
    }

    @Test func emptyStringsAreStoredAsAbsent() async throws {
        let store = try HistoryStore.inMemory()
        let asset = MediaAsset(
            title: "T", artists: [], album: "", appID: "vlc", appName: "", appIcon: "", started: 1, ended: 2,
            listened: 1, kind: MediaAsset.Kind(rawValue: ""), source: .mpris)
        _ = try await answer { store.insert(asset, completion: $0) }
        let back = try #require(try await store.recentPage(RecentQuery()).first)
        #expect(back.album == nil && back.appName == nil && back.appIcon == nil && back.kind == nil)
        let rawArtists = try await store.inspect { database throws(SQLiteError) in
            try database.connection.scalarText("SELECT quote(artists) FROM assets")
        }
        #expect(rawArtists == "NULL")
    }

    @Test(arguments: [
        ["Сергей Рахманинов", "王菲"],
        ["فيروز", "עידן רייכל"],
        ["🎸 Band 🥁", "Zoë Keating"],
        ["Crosby, Stills, Nash & Young", "Earth, Wind & Fire"],
        ["e\u{301}", "a\u{0}b"],
    ])
    func unicodeAndCommasSurviveInArtistsAndTitles(_ artists: [String]) async throws {
        let store = try HistoryStore.inMemory()
        let title = artists.joined(separator: " / ")
        var asset = makeAsset(title, artists: artists)
        asset.album = artists.reversed().joined(separator: ", ")
        let outcome = try await answer { store.insert(asset, completion: $0) }
        let back = try #require(try await store.recentPage(RecentQuery()).first)
        // NUL is a C0 control: stripped from artists (it could never be typed anyway), kept elsewhere.
        asset.artists = artists.map { $0.replacingOccurrences(of: "\u{0}", with: "") }
        #expect(back == stored(asset, id: outcome.id))
    }

    @Test func controlCharactersAreStrippedFromArtistsAndEmptyArtistsDropped() async throws {
        let store = try HistoryStore.inMemory()
        _ = try await answer { store.insert(makeAsset(artists: ["A\u{1F}B", "\u{1}\u{1F}", "", "C\tD\n"]), completion: $0) }
        let back = try #require(try await store.recentPage(RecentQuery()).first)
        #expect(back.artists == ["AB", "CD"])
    }

    @Test func onlyEmptyArtistsAreStoredAsNull() async throws {
        let store = try HistoryStore.inMemory()
        _ = try await answer { store.insert(makeAsset(artists: ["", "\u{7}"]), completion: $0) }
        let raw = try await store.pragma("SELECT quote(artists) FROM assets")
        #expect(raw == "NULL")
        #expect(try await store.recentPage(RecentQuery()).first?.artists == [])
    }

    @Test func theSameListenTwiceIsOneAsset() async throws {
        let store = try HistoryStore.inMemory()
        let first = try await answer { store.insert(makeAsset(), completion: $0) }
        var again = makeAsset()
        again.listened += 5_000_000  // a replayed, slightly different delivery of the same listen
        let second = try await answer { store.insert(again, completion: $0) }
        #expect(first.wasNew && !second.wasNew)
        #expect(first.id == second.id)
        #expect(try await answer { store.count(completion: $0) } == 1)
        #expect(try await store.recentPage(RecentQuery()).first?.listened == makeAsset().listened)
    }

    @Test func sameStartDifferentTitleOrAppAreDistinct() async throws {
        let store = try HistoryStore.inMemory()
        let outcomes = try await answer { store.insert(contentsOf: [
            makeAsset("A", app: "mpv"), makeAsset("B", app: "mpv"), makeAsset("A", app: "vlc"),
        ], completion: $0) }
        #expect(outcomes.allSatisfy { $0.wasNew })
        #expect(Set(outcomes.map(\.id)).count == 3)
    }

    @Test func batchInsertReportsDuplicatesWithinAndAcrossBatches() async throws {
        let store = try HistoryStore.inMemory()
        let earlier = try await answer { store.insert(makeAsset("Old"), completion: $0) }
        let outcomes = try await answer { store.insert(contentsOf: [makeAsset("New"), makeAsset("Old"), makeAsset("New")], completion: $0) }
        #expect(outcomes.map(\.wasNew) == [true, false, false])
        #expect(outcomes[1].id == earlier.id && outcomes[2].id == outcomes[0].id)
        #expect(try await answer { store.count(completion: $0) } == 2)
    }

    @Test func theAssetsOwnIDIsIgnored() async throws {
        let store = try HistoryStore.inMemory()
        var asset = makeAsset()
        asset.id = 4242
        let outcome = try await answer { store.insert(asset, completion: $0) }
        #expect(outcome.id != 4242)
    }

    @Test func idsAreNeverReusedAfterTheNewestIsPurged() async throws {
        let store = try HistoryStore.inMemory()
        let first = try await answer { store.insert(makeAsset("A", started: 1), completion: $0) }
        let newest = try await answer { store.insert(makeAsset("B", started: 2), completion: $0) }
        _ = try await store.purgedIDs(.range(since: 2, until: nil))
        let next = try await answer { store.insert(makeAsset("C", started: 3), completion: $0) }
        #expect(next.id > newest.id && newest.id > first.id)
    }

    @Test func callbackCompletionRunsOnTheStoreThread() async throws {
        let store = try HistoryStore.inMemory()
        let caller = pthread_self()
        let ranElsewhere = await withCheckedContinuation { continuation in
            store.insert(makeAsset()) { result in
                continuation.resume(returning: (try? result.get()) != nil && pthread_equal(pthread_self(), caller) == 0)
            }
        }
        #expect(ranElsewhere)
    }
}
