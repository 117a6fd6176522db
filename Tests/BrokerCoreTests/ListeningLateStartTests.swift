import Testing
@testable import BrokerCore
import CoreFixtures

/// Issue 17 §4: a player met already playing (Chromium's name appears ~2.7 s after its audio
/// starts) has been playing since its `Position` says; the listen begins then.
@Suite("Listening: a player met already playing began when its position says")
struct ListeningLateStartTests {
    @Test("the listen begins at the moment given and counts the time since as heard")
    func beginsEarlier() {
        var player = ScriptedPlayer(timers: true)
        player.send(.metadata(track(length: 60 * second)), at: 10)
        player.send(.playingSince(at(7.3)), at: 10)
        player.send(.playbackStatus(.stopped), at: 40)
        #expect(player.recorded == [Recorded("Song", started: 7.3, ended: 40, listened: 32.7)])
    }

    @Test("a moment in the future is now")
    func neverInTheFuture() {
        var player = ScriptedPlayer(timers: true)
        player.send(.metadata(track(length: 60 * second)), at: 10)
        player.send(.playingSince(at(15)), at: 10)
        player.send(.playbackStatus(.stopped), at: 45)
        #expect(player.recorded == [Recorded("Song", started: 10, ended: 45, listened: 35)])
    }

    @Test("a listen already in progress keeps its start")
    func onlyANewListen() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: 120 * second), at: 0)
        player.send(.playbackStatus(.paused), at: 50)
        player.send(.playingSince(at(-100)), at: 60)
        player.send(.playbackStatus(.stopped), at: 100)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 100, listened: 90)])
    }

    @Test("the heard time counts toward the first write and the threshold at once")
    func countsAtOnce() {
        var player = ScriptedPlayer(rule: .minimum(seconds: 2), timers: true)
        player.send(.metadata(track(length: 60 * second)), at: 10)
        let effects = player.send(.playingSince(at(7)), at: 10)
        #expect(effects.count == 1)
        #expect(player.opened.first?.started == at(7))
        #expect(player.opened.first?.listened == 3 * second)
    }

    @Test("at the player's rate: the heard media time is the wall time times the rate")
    func atTheRate() {
        var player = ScriptedPlayer(timers: true)
        player.send(.metadata(track(length: 100 * second)), at: 10)
        player.send(.rate(2), at: 10)
        player.send(.playingSince(at(5)), at: 10)
        player.send(.playbackStatus(.stopped), at: 50)
        #expect(player.recorded == [Recorded("Song", started: 5, ended: 50, listened: 90)])
    }

    @Test("a position told before any track is known says nothing of the track that comes; one told between its first signals does")
    func positionBeforeTheTrack() {
        var player = ScriptedPlayer(timers: true)
        player.send(.seeked(position: 6 * second), at: 0)  // a player taking its name again after a track ended
        player.send(.metadata(track("Next", length: 60 * second)), at: 0.01)
        #expect(player.listening.position(at: at(0.02)) == nil)
        var chromium = ScriptedPlayer(timers: true)
        chromium.send(.metadata(TrackMetadata(trackID: "/org/chromium/MediaPlayer2/TrackList/Track1", length: 60 * second)), at: 0)
        chromium.send(.seeked(position: 2_676_628), at: 0.01)
        chromium.send(.metadata(TrackMetadata(trackID: "/org/chromium/MediaPlayer2/TrackList/Track1", title: "Song", length: 60 * second)), at: 0.02)
        #expect(chromium.listening.position(at: at(0.03)) == 2_676_628)
    }
}
