import Testing
@testable import BrokerCore
import CoreFixtures

/// Issue 3 §3 and issue 16 §2: a listen is on disk once heard for a few seconds (or at its threshold,
/// when sooner), then checkpointed at each state change and when it crosses its threshold;
/// `nextDeadline` tells the caller when each of those comes.
@Suite("Listening: checkpoints and deadlines")
struct ListeningCheckpointTests {
    @Test("nothing is written at the listen's first moment; its first write comes after 5 s heard")
    func firstWriteAfterFiveSeconds() {
        var player = ScriptedPlayer()
        player.play(track(), at: 0)
        #expect(player.effects.isEmpty)
        #expect(player.listening.current?.metadata == track())
        #expect(player.listening.nextDeadline(at: at(0)) == at(5))
        #expect(player.send(.tick, at: 4.999999).isEmpty)
        let effects = player.send(.tick, at: 5)
        #expect(effects == [.opened(Listen(key: player.listening.current?.key ?? "", metadata: track(), started: at(0), ended: at(5), listened: 5 * second))])
    }

    @Test("nextDeadline is the moment an 8-minute track reaches 4 minutes, and the tick then checkpoints")
    func deadlineAtThreshold() {
        var player = ScriptedPlayer()
        player.play(track(length: 480 * second), at: 0)
        player.send(.tick, at: 5)
        #expect(player.listening.nextDeadline(at: at(5)) == at(240))
        #expect(player.listening.nextDeadline(at: at(100)) == at(240))
        #expect(player.send(.tick, at: 239.999999).isEmpty)
        let effects = player.send(.tick, at: 240)
        #expect(effects.count == 1)
        #expect(effects.first.map { if case .checkpoint(let l) = $0 { l.listened } else { -1 } } == 240 * second)
        #expect(player.listening.nextDeadline(at: at(240)) == nil)
        player.send(.playbackStatus(.stopped), at: 240)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 240, listened: 240)])
    }

    @Test("Last.fm boundary: a 30-second track never qualifies and needs no deadline once written")
    func thirtySecondTrack() {
        var player = ScriptedPlayer()
        player.play(track(length: 30 * second), at: 0)
        player.send(.tick, at: 5)
        #expect(player.listening.nextDeadline(at: at(5)) == nil)
        player.send(.playbackStatus(.stopped), at: 30)
        #expect(player.dropReasons == [.tooShort])
    }

    @Test("Last.fm boundary: unknown length crosses at 30 s")
    func unknownLengthDeadline() {
        var player = ScriptedPlayer()
        player.play(track(length: nil), at: 0)
        player.send(.tick, at: 5)
        #expect(player.listening.nextDeadline(at: at(5)) == at(30))
    }

    @Test("min-listen: the deadline is the flat threshold")
    func minListenDeadline() {
        var player = ScriptedPlayer(rule: .minimum(seconds: 2))
        player.play(track(length: 3 * second), at: 0)
        #expect(player.listening.nextDeadline(at: at(0)) == at(2))
        player.send(.tick, at: 2)
        player.send(.playbackStatus(.stopped), at: 3)
        #expect(player.opened.map(\.listened) == [2 * second])
        #expect(player.checkpoints.isEmpty)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 3, listened: 3)])
    }

    @Test("the deadline accounts for the rate and for time already heard")
    func deadlineWithRateAndPause() {
        var player = ScriptedPlayer()
        player.play(track(length: 480 * second), at: 0)
        player.send(.tick, at: 5)
        player.send(.playbackStatus(.paused), at: 60)
        #expect(player.listening.nextDeadline(at: at(61)) == at(660))  // paused: only the end of the longest pause
        player.send(.playbackStatus(.playing), at: 100)
        player.send(.rate(2), at: 100)
        // 180 s left to hear at 2× = 90 s of wall time.
        #expect(player.listening.nextDeadline(at: at(100)) == at(190))
    }

    @Test("a threshold crossed between events is checkpointed by the next event, once")
    func crossingWithoutTick() {
        var player = ScriptedPlayer()
        player.play(track(length: nil), at: 0)
        player.send(.tick, at: 5)
        player.send(.playbackStatus(.paused), at: 45)
        player.send(.playbackStatus(.playing), at: 50)
        // The pause carried the crossing: one checkpoint each for pause and resume, none extra.
        #expect(player.checkpoints.map(\.listened) == [45 * second, 45 * second])
        player.send(.tick, at: 60)
        #expect(player.checkpoints.count == 2)
    }

    @Test("a long listen is also checkpointed every interval while it plays")
    func periodicCheckpoints() {
        var player = ScriptedPlayer(checkpointInterval: 300 * second)
        player.play(track(length: 7_200 * second), at: 0)
        #expect(player.listening.nextDeadline(at: at(0)) == at(5))
        player.send(.tick, at: 5)
        #expect(player.listening.nextDeadline(at: at(5)) == at(240))
        player.send(.tick, at: 240)
        #expect(player.listening.nextDeadline(at: at(240)) == at(540))  // 5 minutes after the first write
        player.send(.tick, at: 540)
        player.send(.tick, at: 600)
        #expect(player.opened.map(\.listened) == [5 * second])
        #expect(player.checkpoints.map(\.listened) == [240 * second, 540 * second])
        player.send(.playbackStatus(.paused), at: 700)
        player.send(.tick, at: 700)
        #expect(player.listening.nextDeadline(at: at(701)) == at(1300))  // paused: only the end of the longest pause
    }

    @Test("no deadline while nothing is open: placeholders, adverts, stopped players")
    func noDeadlineWhenNothingOpen() {
        var player = ScriptedPlayer()
        #expect(player.listening.nextDeadline(at: at(0)) == nil)
        player.play(.empty, at: 0)
        #expect(player.listening.nextDeadline(at: at(0)) == nil)
        player.send(.metadata(TrackMetadata(trackID: "spotify:ad:1", title: "Ad")), at: 1)
        #expect(player.listening.nextDeadline(at: at(1)) == nil)
    }

    @Test("current(at:) counts the time heard up to now for NowPlaying")
    func currentAtNow() {
        var player = ScriptedPlayer()
        player.play(track(length: nil), at: 0)
        #expect(player.listening.current?.listened == 0)
        #expect(player.listening.current(at: at(12))?.listened == 12 * second)
        #expect(player.listening.current(at: at(12))?.ended == at(12))
        player.send(.playbackStatus(.paused), at: 20)
        #expect(player.listening.current(at: at(99))?.listened == 20 * second)
    }
    @Test("quirk 2: a length revised back and forth around the threshold writes one threshold checkpoint")
    func thresholdCheckpointOnce() {
        var player = ScriptedPlayer()
        player.play(track(length: 100 * second), at: 0)
        player.send(.tick, at: 5)
        player.send(.tick, at: 50)  // crosses half of 100 s
        for i in 1...20 {
            let length: Microseconds = i.isMultiple(of: 2) ? 100 * second : 300 * second
            player.send(.metadata(track(length: length)), at: 50 + Double(i) / 10)
        }
        #expect(player.checkpoints.map(\.listened) == [50 * second])
    }

    @Test("a listen whose threshold comes before 5 s is first written at its threshold")
    func firstWriteAtAnEarlierThreshold() {
        var player = ScriptedPlayer(rule: .minimum(seconds: 2))
        player.play(track(), at: 0)
        #expect(player.listening.nextDeadline(at: at(0)) == at(2))
        let effects = player.send(.tick, at: 2)
        #expect(effects.count == 1)
        #expect(player.opened.map(\.listened) == [2 * second])
        #expect(player.checkpoints.isEmpty)  // the first write already qualified
    }

    @Test("a first write waits for 5 s heard, not 5 s of wall time: at 2× it comes after 2.5 s, paused never")
    func firstWriteCountsHeardTime() {
        var player = ScriptedPlayer()
        player.play(track(), at: 0)
        player.send(.rate(2), at: 0)
        #expect(player.listening.nextDeadline(at: at(0)) == at(2.5))
        player.send(.playbackStatus(.paused), at: 1)
        #expect(player.listening.nextDeadline(at: at(1)) == at(601))  // paused: only the end of the longest pause
        #expect(player.send(.tick, at: 100).isEmpty)
        player.send(.playbackStatus(.playing), at: 100)
        #expect(player.listening.nextDeadline(at: at(100)) == at(101.5))
        player.send(.tick, at: 101.5)
        #expect(player.opened.map(\.listened) == [5 * second])
    }

    @Test("state changes before the first write write nothing; the first write carries them")
    func noCheckpointBeforeFirstWrite() {
        var player = ScriptedPlayer()
        player.play(track(), at: 0)
        player.send(.playbackStatus(.paused), at: 1)
        player.send(.playbackStatus(.playing), at: 2)
        #expect(player.effects.isEmpty)
        player.send(.tick, at: 6)
        #expect(player.opened.map(\.listened) == [5 * second])
        #expect(player.checkpoints.isEmpty)
    }

    @Test("issue 17: the player turning out to be another app writes a written listen again, at once; an unwritten one waits")
    func appChangedRewrites() {
        var player = ScriptedPlayer()
        player.play(track(), at: 0)
        #expect(player.send(.appChanged, at: 1).isEmpty)
        player.send(.tick, at: 5)
        #expect(player.opened.count == 1)
        let effects = player.send(.appChanged, at: 8)
        #expect(effects.count == 1)
        #expect(player.checkpoints.map(\.listened) == [8 * second])
    }
}
