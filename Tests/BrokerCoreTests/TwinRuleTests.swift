import Testing
@testable import BrokerCore
import CoreFixtures

/// The twin rule without a bus (quirk 14): the same song on two players at overlapping times is
/// one listen, the original preferred over a mirror.
@Suite("Twin rule: one song, one listen")
struct TwinRuleTests {
    func heard(_ title: String, album: String? = "Record", artists: [String] = ["Band"], from started: Double, to ended: Double) -> Listen {
        Listen(key: "\(started)", metadata: TrackMetadata(title: title, artists: artists, album: album),
               started: at(started), ended: at(ended), listened: at(ended) - at(started))
    }

    func isTwin(_ rule: inout TwinRule, _ listen: Listen, from player: String, isProxy: Bool = false, now: Double,
                playing: [TwinRule.Playing] = []) -> Bool {
        rule.isTwin(listen, from: player, isProxy: isProxy, at: at(now)) { playing }
    }

    @Test("the same song recorded from another player over an overlapping time is a twin; the first to finish counts")
    func recordedTwin() {
        var rule = TwinRule()
        rule.remember(heard("Song", from: 0, to: 200), from: ":1.1")
        #expect(isTwin(&rule, heard("Song", from: 1, to: 201), from: ":1.2", now: 201))
        #expect(isTwin(&rule, heard("Song", album: nil, artists: [], from: 10, to: 100), from: ":1.3", now: 201),
                "a mirror that lacks album and artists still names the same song")
    }

    @Test("not a twin: the same player again, a later play, another album or other artists, another title")
    func notTwins() {
        var rule = TwinRule()
        rule.remember(heard("Song", from: 0, to: 200), from: ":1.1")
        #expect(!isTwin(&rule, heard("Song", from: 100, to: 300), from: ":1.1", now: 300), "a player's own replay")
        #expect(!isTwin(&rule, heard("Song", from: 200, to: 400), from: ":1.2", now: 400), "played after the first ended")
        #expect(!isTwin(&rule, heard("Song", album: "Other Record", from: 1, to: 201), from: ":1.2", now: 201))
        #expect(!isTwin(&rule, heard("Song", artists: ["Other Band"], from: 1, to: 201), from: ":1.2", now: 201))
        #expect(!isTwin(&rule, heard("Other Song", from: 1, to: 201), from: ":1.2", now: 201))
    }

    @Test("a proxy finishing while the original still plays the song is the twin; the original is counted when it ends")
    func proxyDefersToTheOriginal() {
        var rule = TwinRule()
        let original = TwinRule.Playing(listen: heard("Song", from: 0, to: 150), isProxy: false)
        #expect(isTwin(&rule, heard("Song", from: 2, to: 150), from: ":1.9", isProxy: true, now: 150, playing: [original]))
        #expect(!isTwin(&rule, heard("Song", from: 0, to: 200), from: ":1.1", now: 200))
    }

    @Test("a player that is no proxy is never deferred to another that plays on, nor a proxy to another proxy")
    func onlyProxiesDefer() {
        var rule = TwinRule()
        let other = TwinRule.Playing(listen: heard("Song", from: 0, to: 150), isProxy: false)
        #expect(!isTwin(&rule, heard("Song", from: 2, to: 150), from: ":1.2", now: 150, playing: [other]))
        let mirror = TwinRule.Playing(listen: heard("Song", from: 0, to: 150), isProxy: true)
        #expect(!isTwin(&rule, heard("Song", from: 2, to: 150), from: ":1.9", isProxy: true, now: 150, playing: [mirror]))
    }

    @Test("what plays now is asked only for a proxy")
    func othersAskedOnlyForProxies() {
        var rule = TwinRule()
        var asked = 0
        _ = rule.isTwin(heard("Song", from: 0, to: 100), from: ":1.1", isProxy: false, at: at(100)) { asked += 1; return [] }
        #expect(asked == 0)
        _ = rule.isTwin(heard("Song", from: 0, to: 100), from: ":1.9", isProxy: true, at: at(100)) { asked += 1; return [] }
        #expect(asked == 1)
    }

    @Test("a recorded listen is forgotten an hour after it ended")
    func forgottenAfterAnHour() {
        var rule = TwinRule()
        rule.remember(heard("Song", from: 0, to: 200), from: ":1.1")
        // A listen whose recorded start overlaps (a player's clock far behind), judged 1 h later.
        #expect(!isTwin(&rule, heard("Song", from: 1, to: 201), from: ":1.2", now: 200 + 3601))
    }
}
