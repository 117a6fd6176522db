import Testing
@testable import BrokerCore
import CoreFixtures

/// Issue 3 §1: `listened` is wall-clock time in Playing × Rate; a seek adds nothing.
@Suite("Listening: counting the time heard")
struct ListeningClockTests {
    @Test("pause stops the clock and resume restarts it, to the microsecond")
    func pauseAndResume() {
        var player = ScriptedPlayer()
        player.play(track(length: 120 * second), at: 0)
        player.send(.playbackStatus(.paused), at: 10.5)
        player.send(.playbackStatus(.playing), at: 70)
        player.send(.playbackStatus(.stopped), at: 150.25)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 150.25, listened: 90.75)])
        #expect(player.finished.first?.listened == 90_750_000)
    }

    @Test("a pause and a resume are each a checkpoint with the time heard so far")
    func pauseCheckpoints() {
        var player = ScriptedPlayer()
        player.play(track(length: 120 * second), at: 0)
        player.send(.tick, at: 5)  // the first write
        player.send(.playbackStatus(.paused), at: 10)
        player.send(.playbackStatus(.playing), at: 20)
        #expect(player.checkpoints.map(\.listened) == [10 * second, 10 * second])
        #expect(player.checkpoints.map(\.ended) == [at(10), at(10)])
    }

    @Test("ended is the last moment heard, not the moment a paused listen was ended")
    func endedIsLastHeard() {
        var player = ScriptedPlayer()
        player.play(track(length: 60 * second), at: 0)
        player.send(.playbackStatus(.paused), at: 40)
        player.send(.metadata(track("Next")), at: 500)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 40, listened: 40)])
        #expect(player.opened.count == 1)  // "Next" is paused: no listen yet
    }

    @Test("rate 2.0 doubles the time heard")
    func rateDoubles() {
        var player = ScriptedPlayer()
        player.send(.rate(2), at: 0)
        player.play(track(length: nil), at: 0)
        player.send(.playbackStatus(.stopped), at: 40)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 40, listened: 80)])
    }

    @Test("a rate change counts the time before it at the old rate")
    func rateChangeMidway() {
        var player = ScriptedPlayer()
        player.play(track(length: nil), at: 0)
        player.send(.rate(0.5), at: 20)
        player.send(.playbackStatus(.stopped), at: 60)
        #expect(player.finished.first?.listened == 40 * second)
        #expect(player.checkpoints.isEmpty)  // a rate change writes nothing
    }

    @Test("rate 0 and negative rates stand the clock still; NaN is ignored; huge rates are capped")
    func oddRates() {
        var player = ScriptedPlayer()
        player.play(track(length: nil), at: 0)
        player.send(.rate(0), at: 10)
        player.send(.rate(-1), at: 20)
        #expect(player.listening.rate == 0)
        player.send(.rate(1), at: 30)
        player.send(.rate(.nan), at: 35)
        #expect(player.listening.rate == 1)
        player.send(.rate(1e12), at: 40)
        #expect(player.listening.rate == PlayerListening.maximumRate)
        player.send(.playbackStatus(.stopped), at: 41)
        // 10 s + 10 s at rate 1, then 1 s at 16×.
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 41, listened: 36)])
    }

    @Test("quirk 21: a seek forward adds nothing — jumping to 90 % is not having listened")
    func quirk21SeekForward() {
        var player = ScriptedPlayer()
        player.play(track(length: 480 * second), at: 0)
        player.send(.seeked(position: 432 * second), at: 1)
        player.send(.tick, at: 5)  // the first write
        player.send(.metadata(track("Next")), at: 49)
        #expect(player.finished.isEmpty)
        #expect(player.dropped.map(\.0.listened) == [49 * second])
        #expect(player.dropReasons == [.tooShort])
    }

    @Test("quirk 21: seeking back and replaying is listening, in the same listen")
    func quirk21SeekBackReplay() {
        var player = ScriptedPlayer()
        player.play(track(length: 200 * second), at: 0)
        player.send(.seeked(position: 0), at: 60)  // not yet qualifying: the same listen goes on
        player.send(.seeked(position: 10 * second), at: 90)
        player.send(.playbackStatus(.stopped), at: 120)
        #expect(player.opened.count == 1)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 120, listened: 120)])
    }

    @Test("quirk 20: Position and Seeked are hints — nonsense positions change nothing")
    func quirk20NonsensePositions() {
        var player = ScriptedPlayer()
        player.play(track(length: nil), at: 0)
        player.send(.seeked(position: -5), at: 10)
        player.send(.seeked(position: .max), at: 20)
        player.send(.seeked(position: .min), at: 30)
        player.send(.playbackStatus(.stopped), at: 40)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 40, listened: 40)])
    }

    @Test("a listen that starts while paused begins only when Playing")
    func startsPausedBeginsOnPlay() {
        var player = ScriptedPlayer()
        player.send(.playbackStatus(.paused), at: 0)
        player.send(.metadata(track(length: nil)), at: 0)
        #expect(player.effects.isEmpty)
        player.send(.playbackStatus(.playing), at: 100)
        player.send(.playbackStatus(.stopped), at: 140)
        #expect(player.recorded == [Recorded("Song", started: 100, ended: 140, listened: 40)])
    }

    @Test("time going backwards counts nothing and keeps started ≤ ended")
    func timeBackwards() {
        var player = ScriptedPlayer()
        player.play(track(length: nil), at: 100)
        player.send(.tick, at: 50)
        player.send(.playbackStatus(.stopped), at: 140)
        let listen = player.finished.first ?? player.dropped.first?.0
        #expect(listen?.listened == 90 * second)
        #expect(listen.map { $0.started <= $0.ended } == true)
    }

    @Test("extreme times saturate instead of trapping")
    func extremeTimes() {
        var listening = PlayerListening(rule: .lastFM)
        _ = listening.handle(.metadata(track()), at: .min)
        _ = listening.handle(.playbackStatus(.playing), at: .min)
        _ = listening.handle(.rate(16), at: .min)
        let effects = listening.handle(.playbackStatus(.stopped), at: .max)
        #expect(effects.first?.listen.listened == .max)
        #expect(listening.nextDeadline(at: .max) == nil)
    }
}
