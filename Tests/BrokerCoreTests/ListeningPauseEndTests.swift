import Testing
@testable import BrokerCore
import CoreFixtures

/// Issue 17 §3: a track that ended is a listen that ended — Paused at the track's end, or paused
/// for longer than ``PlayerListening/longestPause`` — and playing again starts a new listen.
@Suite("Listening: Paused at the end, or paused for long, ends the listen")
struct ListeningPauseEndTests {
    @Test("Firefox's finished <audio>: Paused, then a Seeked to the end, records the listen at once")
    func pausedThenSeekedToTheEnd() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 40 * second), at: 0)
        player.send(.playbackStatus(.paused), at: 41.5)  // Firefox says Playing ~1.5 s past the end
        #expect(player.finished.isEmpty)
        player.send(.seeked(position: 40 * second), at: 41.6)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 41.5, listened: 41.5)])
        #expect(player.listening.current == nil)
    }

    @Test("a Seeked to the end, then Paused, ends the listen as the pause comes")
    func seekedThenPaused() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 40 * second), at: 0)
        player.send(.seeked(position: 39_500_000), at: 39.5)
        player.send(.playbackStatus(.paused), at: 40)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 40, listened: 40)])
    }

    @Test("Paused with a Position read at the end (within a second) ends the listen; further away it does not", arguments: [
        (39_000_001 as Microseconds, true), (40 * second, true), (41 * second, true), (38_900_000, false), (20 * second, false),
    ])
    func positionRead(position: Microseconds, ends: Bool) {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 40 * second), at: 0)
        player.send(.playbackStatus(.paused), at: 39)
        player.send(.position(position), at: 39.01)
        #expect(player.finished.count == (ends ? 1 : 0))
        #expect((player.listening.current == nil) == ends)
    }

    @Test("the position told while playing is counted on: Paused where the count reaches the end ends the listen")
    func positionCountedOn() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 40 * second), at: 0)
        player.send(.position(10 * second), at: 10)
        player.send(.playbackStatus(.paused), at: 39.5)
        #expect(player.finished.count == 1)
    }

    @Test("a position told about the previous track says nothing about this one")
    func positionForgottenOnANewTrack() {
        var player = ScriptedPlayer(timers: true)
        player.play(track("One", length: 100 * second), at: 0)
        player.send(.seeked(position: 290 * second), at: 50)
        player.send(.metadata(track("Two", length: 40 * second)), at: 60)
        player.send(.playbackStatus(.paused), at: 70)
        #expect(player.recorded.map(\.title) == ["One"])
        #expect(player.listening.current?.metadata.title == "Two")
    }

    @Test("without a known length or position, Paused is only a pause")
    func unknownLengthIsAPause() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: nil), at: 0)
        player.send(.seeked(position: 400 * second), at: 30)
        player.send(.playbackStatus(.paused), at: 40)
        #expect(player.finished.isEmpty)
        var other = ScriptedPlayer(timers: true)
        other.play(track(length: 40 * second), at: 0)
        other.send(.playbackStatus(.paused), at: 40)
        #expect(other.finished.isEmpty)
    }

    @Test("playing again after the end starts a new listen of the same track")
    func replayAfterTheEnd() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 40 * second), at: 0)
        player.send(.playbackStatus(.paused), at: 41)
        player.send(.seeked(position: 40 * second), at: 41)
        player.send(.seeked(position: 0), at: 100)
        player.send(.playbackStatus(.playing), at: 100)
        player.send(.playbackStatus(.stopped), at: 140)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 41, listened: 41),
                                    Recorded("Song", started: 100, ended: 140, listened: 40)])
    }

    @Test("a listen paused for longer than ten minutes is finished when the time is up, with the time heard before")
    func longPauseFinishes() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 3600 * second), at: 0)
        player.send(.playbackStatus(.paused), at: 1000)
        #expect(player.listening.nextDeadline(at: at(1000.5)) == at(1600))
        player.send(.tick, at: 1599)
        #expect(player.finished.isEmpty)
        player.send(.tick, at: 1600)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 1000, listened: 1000)])
        #expect(player.listening.nextDeadline(at: at(1601)) == nil)
        player.send(.playbackStatus(.playing), at: 7200)
        player.send(.playbackStatus(.stopped), at: 7500)
        #expect(player.recorded.map(\.started) == [0, 7200])
    }

    @Test("without a timer, the next event after a long pause ends the listen first")
    func longPauseWithoutTimer() {
        var player = ScriptedPlayer(timers: false)
        player.play(track(length: 3600 * second), at: 0)
        player.send(.playbackStatus(.paused), at: 1000)
        player.send(.playbackStatus(.playing), at: 5000)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 1000, listened: 1000)])
        #expect(player.listening.current?.started == at(5000))
    }

    @Test("a short pause is a pause: the listen goes on, its time adding up")
    func shortPause() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 300 * second), at: 0)
        player.send(.playbackStatus(.paused), at: 100)
        player.send(.playbackStatus(.playing), at: 699)
        player.send(.playbackStatus(.stopped), at: 799)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 799, listened: 200)])
    }

    @Test("a long pause of a listen too short to count leaves no record")
    func longPauseTooShort() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 3600 * second), at: 0)
        player.send(.playbackStatus(.paused), at: 10)
        player.send(.tick, at: 700)
        #expect(player.finished.isEmpty)
        #expect(player.dropReasons == [.tooShort])
        #expect(player.listening.current == nil)
    }
}
