import Foundation
import Testing
@testable import MediaBroker
@testable import BrokerCore

/// Correction rules in the store (issue 34, §3): an edit made from now on keeps what the person
/// changed, keyed by the words the listen was first recorded with; rules outlive the broker; a
/// listen a rule corrected keeps its told words, so its correction can be undone.
@Suite("HistoryStore: correction rules")
struct HistoryStoreRulesTests {
    @Test("an edit from now on keeps a rule for the app's first-recorded words, with only what changed")
    func editFromNowOnKeepsARule() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let id = try await answer { store.insert(makeAsset("Teardorp", app: "spotify", artists: ["Massive Atack"]), completion: $0) }.id
        // A first correction, not from now on; the rule made next still matches the words as told.
        _ = try await answer { store.edit(id, with: MediaCorrection(title: "Teardrop"), at: 10, completion: $0) }
        let outcome = try await answer {
            store.edit(id, with: MediaCorrection(artists: ["Massive Attack"]), fromNowOn: true, at: 20, completion: $0)
        }
        let rule = try #require(outcome?.rules?.first)
        #expect(outcome?.rules?.count == 1)
        #expect(rule.appID == "spotify" && rule.title == "Teardorp" && rule.artists == ["Massive Atack"] && rule.created == 20)
        #expect(rule.correction == MediaCorrection(title: "Teardrop", artists: ["Massive Attack"]), "the album was not changed")

        let reopened = try HistoryStore(path: folder.file("history.sqlite3"))
        #expect(try await answer { reopened.correctionRules(completion: $0) } == [rule], "rules outlive the broker")
    }

    @Test("a newer rule for the same words replaces the older; correcting back to the told words removes it")
    func newerRuleReplaces() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let id = try await answer { store.insert(makeAsset("Teardorp", app: "spotify"), completion: $0) }.id
        let first = try await answer { store.edit(id, with: MediaCorrection(title: "Tear"), fromNowOn: true, at: 1, completion: $0) }
        let second = try await answer {
            store.edit(id, with: MediaCorrection(title: "Teardrop", album: .some(nil)), fromNowOn: true, at: 2, completion: $0)
        }
        let replaced = try #require(second?.rules)
        #expect(replaced.count == 1 && replaced[0].correction == MediaCorrection(title: "Teardrop", album: .some(nil)))
        #expect(replaced[0].id != first?.rules?.first?.id, "the replacement is the newest rule")
        let back = try await answer { store.edit(id, with: MediaCorrection(title: "Teardorp", album: "Album"), fromNowOn: true, at: 3, completion: $0) }
        #expect(back?.rules == [])
    }

    @Test("removing a rule leaves the others; an unknown rule is nil")
    func removeRule() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let a = try await answer { store.insert(makeAsset("A", started: 1), completion: $0) }.id
        let b = try await answer { store.insert(makeAsset("B", started: 2), completion: $0) }.id
        _ = try await answer { store.edit(a, with: MediaCorrection(title: "A!"), fromNowOn: true, at: 1, completion: $0) }
        let both = try #require(try await answer { store.edit(b, with: MediaCorrection(title: "B!"), fromNowOn: true, at: 2, completion: $0) }?.rules)
        #expect(both.map(\.title) == ["A", "B"], "oldest first")
        let left = try await answer { store.removeRule(both[0].id, completion: $0) }
        #expect(left?.map(\.title) == ["B"])
        #expect(try await answer { store.removeRule(both[0].id, completion: $0) } == nil)
        #expect(try await store.recentPage(RecentQuery()).map(\.title).sorted() == ["A!", "B!"], "corrected listens stay corrected")
        _ = try await answer { store.removeRule(both[1].id, completion: $0) }
        let next = try await answer { store.edit(a, with: MediaCorrection(title: "A?"), fromNowOn: true, at: 3, completion: $0) }
        #expect((next?.rules?.first?.id ?? 0) > both[1].id, "a removed rule's id is never given again")
    }

    @Test("a listen recorded corrected keeps its told words: undo puts them back")
    func recordedCorrectedCanBeUndone() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let told = makeAsset("Teardorp", app: "spotify")
        let corrected = MediaCorrection(title: "Teardrop").applied(to: told)
        let id = try await answer { store.insert(corrected, correctedFrom: told, completion: $0) }.id
        #expect(try await store.recentPage(RecentQuery()).first?.title == "Teardrop")
        #expect(try await answer { store.undoEdit(id, completion: $0) }?.title == "Teardorp")
    }
}
