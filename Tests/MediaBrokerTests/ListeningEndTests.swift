import Testing
@testable import BrokerCore
@testable import MediaBroker
import CoreFixtures

/// Issue 3 §1 and issue 5: how a listen ends, and what is never recorded.
@Suite("Listening: ends, drops and what is never recorded")
struct ListeningEndTests {
    @Test("Stopped ends the listen")
    func stopEnds() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: nil), at: 0)
        player.send(.playbackStatus(.stopped), at: 31)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 31, listened: 31)])
        #expect(player.listening.current == nil)
    }

    @Test("a listen too short to qualify is dropped, so the caller deletes its open record")
    func tooShortDropped() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: nil), at: 0)
        player.send(.playbackStatus(.stopped), at: 29)
        #expect(player.finished.isEmpty)
        #expect(player.dropReasons == [.tooShort])
        #expect(player.dropped.first?.0.key == player.opened.first?.key)
    }

    @Test("quirk 15: the player leaving the bus ends the listen and forgets its state")
    func playerGoneEnds() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: nil), at: 0)
        player.send(.playerGone, at: 45)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 45, listened: 45)])
        #expect(player.listening.status == nil)
        #expect(player.listening.metadata == nil)
        // A new owner under the same name starts from nothing.
        player.send(.playbackStatus(.playing), at: 50)
        #expect(player.opened.count == 1)
    }

    @Test("the broker stopping ends the listen and records it when it qualifies")
    func brokerStoppingEnds() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: nil), at: 0)
        player.send(.brokerStopping, at: 60)
        #expect(player.recorded == [Recorded("Song", started: 0, ended: 60, listened: 60)])
    }

    @Test("quirk 19: Stopped ends the listen even when the player keeps its metadata (VLC)")
    func quirk19StopKeepsMetadata() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: nil), at: 0)
        player.send(.playbackStatus(.stopped), at: 40)
        player.send(.metadata(track(length: nil)), at: 41)  // re-sent, unchanged
        player.send(.metadata(track("Queued next", length: nil)), at: 42)
        player.send(.tick, at: 600)
        #expect(player.finished.count == 1)
        #expect(player.opened.count == 1)  // a stopped player's metadata makes no listen
    }

    @Test("quirk 19: metadata cleared on Stop, then a new track on Play")
    func quirk19ClearedOnStop() {
        var player = ScriptedPlayer(timers: true)
        player.play(track("One", length: nil), at: 0)
        player.send(.metadata(.empty), at: 40)
        player.send(.playbackStatus(.stopped), at: 40)
        player.send(.playbackStatus(.playing), at: 50)
        player.send(.metadata(track("Two", length: nil)), at: 50.1)
        player.send(.playbackStatus(.stopped), at: 90)
        #expect(player.recorded.map(\.title) == ["One", "Two"])
        #expect(player.recorded.map(\.started) == [0, 50])  // Two's listen starts at Playing, completed by its title
    }

    @Test("quirk 19: the NoTrack id ends the listen and starts none")
    func quirk19NoTrack() {
        var player = ScriptedPlayer(timers: true)
        player.play(track(length: nil), at: 0)
        player.send(.metadata(TrackMetadata(trackID: TrackMetadata.noTrackID)), at: 35)
        player.send(.tick, at: 200)
        #expect(player.finished.count == 1)
        #expect(player.opened.count == 1)
    }

    @Test("discard drops the listen in progress without recording it, and the track stays unrecorded")
    func discardDrops() {
        var player = ScriptedPlayer(timers: true)
        player.play(track("Private", album: nil, length: nil), at: 0)
        player.send(.discard, at: 100)
        player.send(.playbackStatus(.paused), at: 110)
        player.send(.playbackStatus(.playing), at: 120)
        player.send(.metadata(track("Private", album: "Filled in", length: nil)), at: 121)
        #expect(player.listening.current == nil)
        player.send(.metadata(track("Next", length: nil)), at: 300)
        player.send(.playbackStatus(.stopped), at: 340)
        #expect(player.dropReasons == [.discarded])
        #expect(player.recorded == [Recorded("Next", started: 300, ended: 340, listened: 40)])
        #expect(!player.checkpoints.contains { $0.metadata.title == "Private" && $0.ended > at(100) })
    }

    @Test("quirk 23: an advert is never opened, never recorded")
    func quirk23AdvertNeverRecorded() {
        var player = ScriptedPlayer(timers: true)
        player.play(TrackMetadata(trackID: "spotify:ad:000000012c603a66", title: "Spotify", length: 30 * second), at: 0)
        player.send(.tick, at: 29)
        player.send(.metadata(track("Song", length: nil)), at: 30)
        player.send(.playbackStatus(.stopped), at: 70)
        #expect(player.recorded.map(\.title) == ["Song"])
        #expect(player.opened.map(\.metadata.title) == ["Song"])
        #expect(player.dropped.isEmpty)
    }

    @Test("quirk 23: an advert revealed by a fill-in before the first write leaves no trace")
    func quirk23AdvertRevealedLate() {
        var player = ScriptedPlayer(timers: true)
        player.play(TrackMetadata(title: "Advertisement"), at: 0)
        player.send(.metadata(TrackMetadata(trackID: "spotify:ad:1234", title: "Advertisement")), at: 0.3)
        player.send(.playbackStatus(.stopped), at: 60)
        #expect(player.effects.isEmpty)
    }

    @Test("an item marked mediabroker:exclude is never opened, never recorded")
    func excludedNeverRecorded() {
        var player = ScriptedPlayer(timers: true)
        player.play(TrackMetadata(title: "Secret", length: nil, isExcluded: true), at: 0)
        player.send(.playbackStatus(.stopped), at: 300)
        #expect(player.effects.isEmpty)
    }

    @Test("an exclusion added by a fill-in before the first write leaves no trace, and the track is not reopened")
    func exclusionAddedLate() {
        var player = ScriptedPlayer(timers: true)
        player.play(TrackMetadata(title: "Secret", length: nil), at: 0)
        player.send(.metadata(TrackMetadata(title: "Secret", length: nil, isExcluded: true)), at: 0.2)
        player.send(.metadata(TrackMetadata(title: "Secret", album: "More", length: nil)), at: 0.4)
        player.send(.playbackStatus(.stopped), at: 300)
        #expect(player.effects.isEmpty)
    }

    @Test("quirk 5: Firefox's placeholder with artist [''] makes no listen")
    func quirk5FirefoxPlaceholder() {
        var player = ScriptedPlayer(timers: true)
        let placeholder = TrackMetadata.decode([
            TrackMetadata.Key.trackID: objectPath("/org/mpris/MediaPlayer2/firefox"),
            TrackMetadata.Key.title: .string("Firefox is playing media"),
            TrackMetadata.Key.artist: .strings([""]),
        ])
        player.play(placeholder, at: 0)
        player.send(.playbackStatus(.stopped), at: 600)
        #expect(player.effects.isEmpty)
    }

    @Test("quirk 5: metadata with no title never makes a listen (Spotify Connect's album only)")
    func quirk5NoTitle() {
        var player = ScriptedPlayer(timers: true)
        player.play(TrackMetadata(album: "An Album", length: 200 * second), at: 0)
        player.send(.playbackStatus(.stopped), at: 200)
        #expect(player.effects.isEmpty)
        #expect(player.listening.current == nil)
    }
}
