import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

/// Issue 3 §1: which track is playing, when one listen ends and the next begins.
@Suite("Listening: tracks, changes and repeats")
struct ListeningTrackTests {
    @Test("a new track ends the listen and starts the next, which is written once heard for 5 s")
    func trackChange() {
        var player = ScriptedPlayer(timers: true)
        player.play(track("One", length: 200 * second), at: 0)
        let effects = player.send(.metadata(track("Two", length: 200 * second)), at: 130)
        #expect(effects.count == 1)
        guard case .finished(let one) = effects.first, let two = player.listening.current else {
            Issue.record("expected One finished and Two playing, got \(effects)")
            return
        }
        player.send(.tick, at: 135)
        #expect(player.opened.last?.key == two.key)
        #expect(Recorded(one.metadata.title!, one.started, one.ended, one.listened) == Recorded("One", started: 0, ended: 130, listened: 130))
        #expect(two.started == at(130))
        #expect(two.listened == 0)
        #expect(one.key != two.key)
    }

    @Test("listen keys tell apart listens begun at the same microsecond and cannot run into each other; a store key gives both parts back")
    func listenKeys() {
        #expect(PlayerListening.key(started: 5, serial: 1) != PlayerListening.key(started: 5, serial: 2))
        #expect(PlayerListening.key(started: 1, serial: 23) != PlayerListening.key(started: 12, serial: 3))
        #expect(PlayerListening.key(started: -1, serial: 1) != PlayerListening.key(started: 1, serial: 1))
        var player = ScriptedPlayer(timers: true)
        player.play(track("One", length: nil), at: 0)
        player.send(.metadata(track("Two", length: nil)), at: 40)
        player.send(.tick, at: 80)
        let keys = [player.finished.last?.key, player.listening.current?.key].compactMap { $0 }
        #expect(Set(keys).count == 2)
        for key in keys {
            let parsed = Listen.parseStoreKey(Listen(key: key, metadata: track(), started: 0, ended: 0, listened: 0).storeKey(player: ":1.42"))
            #expect(parsed?.player == ":1.42")
            #expect(parsed?.key == key)
        }
    }

    @Test("quirk 10: PlaybackStatus not re-sent on a track change — the next track still plays")
    func quirk10StatusNotResent() {
        var player = ScriptedPlayer(timers: true)
        player.play(track("One", length: nil), at: 0)
        player.send(.metadata(track("Two", length: nil)), at: 40)
        player.send(.metadata(track("Three", length: nil)), at: 75)
        player.send(.playbackStatus(.stopped), at: 110)
        #expect(player.recorded == [
            Recorded("One", started: 0, ended: 40, listened: 40),
            Recorded("Two", started: 40, ended: 75, listened: 35),
            Recorded("Three", started: 75, ended: 110, listened: 35),
        ])
    }

    @Test("quirk 7: the title, then the album — one listen from the first signal, with the album")
    func quirk7PartialFillIn() {
        var player = ScriptedPlayer(timers: true)
        player.play(TrackMetadata(trackID: "/t/1", title: "Song"), at: 0)
        player.send(.metadata(TrackMetadata(trackID: "/t/1", title: "Song", artists: ["Artist"])), at: 0.2)
        player.send(.metadata(TrackMetadata(trackID: "/t/1", title: "Song", artists: ["Artist"], album: "Album", length: 100 * second)), at: 0.4)
        player.send(.playbackStatus(.stopped), at: 80)
        #expect(player.opened.count == 1)
        #expect(player.finished.count == 1)
        let listen = player.finished[0]
        #expect(listen.started == at(0))
        #expect(listen.metadata.album == "Album")
        #expect(listen.metadata.artists == ["Artist"])
        #expect(listen.length == 100 * second)
        #expect(player.opened.map(\.metadata.album) == ["Album"])  // filled in before the first write
        #expect(player.checkpoints.map(\.metadata.album) == ["Album"])  // the record follows the fill-in
    }

    @Test("quirk 7: a value that drops a field again keeps the fullest metadata")
    func quirk7FieldDroppedAgain() {
        var player = ScriptedPlayer(timers: true)
        player.play(TrackMetadata(title: "Song", artists: ["A"], album: "Album"), at: 0)
        player.send(.metadata(TrackMetadata(title: "Song", artists: ["A"])), at: 1)
        player.send(.playbackStatus(.stopped), at: 40)
        #expect(player.finished.map(\.metadata.album) == ["Album"])
        #expect(player.opened.count == 1)
    }

    @Test("quirk 7: a track id first and the title within 2 s is one listen from the first moment")
    func quirk7TitleArrivesLate() {
        var player = ScriptedPlayer(timers: true)
        player.play(TrackMetadata(trackID: "/t/1", length: 100 * second), at: 0)
        #expect(player.effects.isEmpty)  // no title, nothing to write yet
        player.send(.metadata(TrackMetadata(trackID: "/t/1", title: "Song", length: 100 * second)), at: 0.5)
        #expect(player.listening.current?.started == at(0))
        player.send(.tick, at: 5)
        #expect(player.opened.map(\.started) == [at(0)])
        #expect(player.opened.map(\.listened) == [5 * second])
    }

    @Test("quirk 7: untitled metadata heard for longer is another track (Spotify is empty until its first change)")
    func quirk7LateTitleIsANewTrack() {
        var player = ScriptedPlayer(timers: true)
        player.play(.empty, at: 0)
        player.send(.metadata(track("First real", length: nil)), at: 95)
        player.send(.playbackStatus(.stopped), at: 130)
        #expect(player.recorded == [Recorded("First real", started: 95, ended: 130, listened: 35)])
    }

    @Test("quirk 7: exact duplicates (Spotify) produce no effects")
    func quirk7Duplicates() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(), at: 0)
        let before = player.effects
        for i in 0..<5 { player.send(.metadata(track()), at: 0.01 * Double(i)) }
        #expect(player.effects == before)
    }

    @Test("quirk 8: a flood of identical status, metadata and rate signals changes nothing")
    func quirk8Flood() {
        var player = ScriptedPlayer()
        player.play(track(length: nil), at: 0)
        player.send(.rate(1), at: 0)
        let before = player.effects
        for i in 1...10_000 {
            let time = Double(i) / 1000
            player.send(.metadata(track(length: nil)), at: time)
            player.send(.playbackStatus(.playing), at: time)
            player.send(.rate(1), at: time)
        }
        #expect(player.effects == before)
        player.send(.playbackStatus(.stopped), at: 40)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 40, listened: 40)])
    }

    @Test("quirk 8: a changing length alone (mpv) writes nothing until the next checkpoint")
    func quirk8LengthRevisions() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 100 * second), at: 0)
        for i in 1...50 { player.send(.metadata(track(length: (100 + Microseconds(i)) * second)), at: Double(i) / 10) }
        #expect(player.checkpoints.isEmpty)
        #expect(player.opened.count == 1)
        #expect(player.listening.current?.length == 150 * second)
    }

    @Test("quirk 22: a loop back to the start after a qualifying listen is a second listen")
    func quirk22LoopAfterQualifying() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 200 * second), at: 0)
        player.send(.seeked(position: 0), at: 200)
        player.send(.seeked(position: 300_000), at: 400.3)
        player.send(.playbackStatus(.stopped), at: 500)
        #expect(player.recorded == [
            Recorded("Song", started: 0, ended: 200, listened: 200),
            Recorded("Song", started: 200, ended: 400.3, listened: 200.3),
        ])
        #expect(player.dropReasons == [.tooShort])  // the last 99.7 s of a 200 s track do not count
        #expect(player.opened.count == 3)
    }

    @Test("a Seeked telling where the player already is, even near the start, begins nothing")
    func seekedWhereItIs() {
        var player = ScriptedPlayer(rule: .minimum(seconds: 2), timers: true)
        player.play(track(length: 6 * second), at: 0)
        // Chromium, its position never told, says where it is 2.1 s in: no restart.
        player.send(.seeked(position: 2_000_000), at: 2.1)
        player.send(.playbackStatus(.stopped), at: 6)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 6, listened: 6)])
        // Back to the start after 3 s heard is a restart.
        var looping = ScriptedPlayer(rule: .minimum(seconds: 2), timers: true)
        looping.play(track(length: 6 * second), at: 0)
        looping.send(.seeked(position: 0), at: 3)
        #expect(looping.recorded == [Recorded("Song", started: 0, ended: 3, listened: 3)])
        // A short track looping: back by half of what was heard is enough.
        #expect(PlayerListening.goesBack(to: 0, from: 900_000))
        #expect(!PlayerListening.goesBack(to: 600_000, from: 900_000))
        #expect(!PlayerListening.goesBack(to: 2_000_000, from: 2_100_000))
    }

    @Test("a player stalled at a position it keeps telling, then telling a little more, begins nothing (Chromium buffering)")
    func stalledWhilePlaying() {
        var player = ScriptedPlayer(rule: .minimum(seconds: 2), timers: true)
        player.play(track(length: 30 * second), at: 0)
        for time in stride(from: 0.2, through: 2.6, by: 0.4) { player.send(.seeked(position: 34_000), at: time) }
        player.send(.seeked(position: 131_000), at: 2.8)
        player.send(.playbackStatus(.stopped), at: 10)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 10, listened: 10)])
        // A short track looping, its position told at each loop, still restarts at its end.
        var looping = ScriptedPlayer(rule: .minimum(seconds: 2), timers: true)
        looping.play(track(length: 3 * second), at: 0)
        looping.send(.seeked(position: 0), at: 3)
        looping.send(.seeked(position: 0), at: 6)
        #expect(looping.recorded.count == 2)
    }

    @Test("quirk 22: a repeated Seeked(0) right after a loop starts nothing more")
    func quirk22DuplicateSeek() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 60 * second), at: 0)
        player.send(.seeked(position: 0), at: 60)
        player.send(.seeked(position: 0), at: 60.1)
        #expect(player.listening.current?.started == at(60))
        #expect(player.finished.count == 1)
    }

    @Test("quirk 22: a loop while paused waits for Playing to start the next listen")
    func quirk22LoopWhilePaused() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 60 * second), at: 0)
        player.send(.playbackStatus(.paused), at: 50)
        player.send(.seeked(position: 0), at: 55)
        #expect(player.finished.count == 1)
        #expect(player.opened.count == 1)
        player.send(.playbackStatus(.playing), at: 70)
        #expect(player.opened.map(\.started) == [at(0)])
        #expect(player.listening.current?.started == at(70))
    }

    @Test("quirk 24: replaying the same signal sequence gives the same listens — one asset in the store")
    func quirk24Replay() async throws {
        func script() -> ScriptedPlayer {
            var player = ScriptedPlayer(timers: true)
            player.play(track("One", length: nil), at: 0)
            player.send(.metadata(track("Two", length: nil)), at: 40)
            player.send(.playbackStatus(.stopped), at: 80)
            return player
        }
        let first = script()
        let second = script()
        #expect(first.effects == second.effects)

        let store = try HistoryStore.inMemory()
        for listen in first.finished + second.finished {
            _ = try await answer { store.insert(listen.asset(appID: "mpv", appName: "mpv", appIcon: nil)!, completion: $0) }
        }
        #expect(try await answer { store.count(completion: $0) } == 2)
    }

    @Test("quirk 24: every signal sent twice gives exactly the effects of sending it once")
    func quirk24DoubledSignals() {
        let events: [(PlayerEvent, Double)] = [
            (.metadata(track("One", length: 100 * second)), 0), (.playbackStatus(.playing), 0),
            (.playbackStatus(.paused), 30), (.playbackStatus(.playing), 35), (.rate(1.5), 40),
            (.metadata(track("Two", length: 100 * second)), 90), (.playbackStatus(.stopped), 200),
        ]
        var once = ScriptedPlayer(timers: true)
        var twice = ScriptedPlayer(timers: true)
        for (event, time) in events {
            once.send(event, at: time)
            twice.send(event, at: time)
            twice.send(event, at: time)
        }
        #expect(once.effects == twice.effects)
        #expect(once.finished.count == 2)
    }

    @Test("quirk 16: two players at once keep separate listens")
    func quirk16TwoPlayers() {
        var browser = ScriptedPlayer(timers: true)
        var music = ScriptedPlayer(timers: true)
        browser.play(track("Video", length: nil), at: 0)
        music.play(track("Song", length: nil), at: 10)
        browser.send(.playbackStatus(.paused), at: 20)
        music.send(.playbackStatus(.stopped), at: 50)
        browser.send(.playbackStatus(.stopped), at: 60)
        #expect(music.recorded == [Recorded("Song", started: 10, ended: 50, listened: 40)])
        #expect(browser.dropped.map(\.0.listened) == [20 * second])
    }
}
