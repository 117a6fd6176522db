import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

/// Issue 3 §3 and quirk 25: a listen in progress survives a broker crash.
@Suite("Listening: crash recovery")
struct ListeningRecoveryTests {
    let player = ":1.42"

    /// Runs a first broker until `crash`: an 8-minute track from 0, checkpointed at 4 minutes.
    /// Returns the open-listen record the store holds at the crash.
    func recordAtCrash(crash: Double = 250) -> OpenListen {
        var run = ScriptedPlayer()
        run.play(track(length: 480 * second), at: 0)
        run.send(.tick, at: 240)
        run.send(.tick, at: crash)
        let last = run.effects.last!.listen
        return OpenListen(
            key: last.storeKey(player: player),
            asset: last.asset(appID: "mpv", appName: "mpv", appIcon: nil)!, checkpoint: last.ended)
    }

    @Test("quirk 25: the player still plays the same track — the listen continues and the downtime counts")
    func quirk25ResumeCountsDowntime() throws {
        let record = recordAtCrash()
        #expect(record.asset.listened == 240 * second)
        let restored = Listen(restoring: record)
        let live = track(length: 480 * second)
        let resumed = try #require(PlayerListening(resuming: restored, metadata: live, status: .playing, at: at(300), checkpointInterval: nil))
        var run = ScriptedPlayer(resumed: resumed)
        #expect(run.listening.nextDeadline(at: at(300)) == at(300))  // the resumed state is to be written now
        run.send(.tick, at: 300)
        #expect(run.checkpoints.map(\.listened) == [300 * second])
        run.send(.playbackStatus(.stopped), at: 400)
        #expect(run.recorded == [Recorded("Song", started: 0, ended: 400, listened: 400)])
        #expect(run.finished.first?.storeKey(player: player) == record.key)
        #expect(run.finished.first?.metadata.trackID == live.trackID)  // the live metadata, fullest
    }

    @Test("quirk 25: resumed while paused, nothing more counts until Playing")
    func resumePaused() throws {
        let resumed = try #require(PlayerListening(
            resuming: Listen(restoring: recordAtCrash()), metadata: track(length: 480 * second), status: .paused,
            at: at(900)))
        var run = ScriptedPlayer(resumed: resumed)
        run.send(.playbackStatus(.playing), at: 1_000)
        run.send(.playbackStatus(.stopped), at: 1_010)
        #expect(run.recorded == [Recorded("Song", started: 0, ended: 1_010, listened: 250)])
    }

    @Test("quirk 25: another track, a stopped player, or a gap longer than the track is not resumed")
    func notResumed() {
        let restored = Listen(restoring: recordAtCrash())
        #expect(PlayerListening(resuming: restored, metadata: track("Other", length: 480 * second), status: .playing, at: at(300)) == nil)
        #expect(PlayerListening(resuming: restored, metadata: track(length: 480 * second), status: .stopped, at: at(300)) == nil)
        #expect(PlayerListening(resuming: restored, metadata: track(length: 480 * second), status: .playing, at: at(800)) == nil)
        let excluded = TrackMetadata(title: "Song", artists: ["Artist"], album: "Album", isExcluded: true)
        #expect(PlayerListening(resuming: restored, metadata: excluded, status: .playing, at: at(300)) == nil)
    }

    @Test("quirk 25: a record not resumed is finished from its last checkpoint when it qualifies")
    func finishedFromCheckpoint() {
        let record = recordAtCrash()
        #expect(ListenRule.lastFM.qualifies(listened: record.asset.listened, length: record.asset.length))
        #expect(record.asset.ended == at(240))  // the tick at 250 wrote nothing
    }

    @Test("a restored listen keeps its key, start, times and the stored fields")
    func restoring() {
        let record = recordAtCrash()
        let listen = Listen(restoring: record)
        #expect(listen.key == Listen.parseStoreKey(record.key)?.key)
        #expect(listen.started == at(0))
        #expect(listen.ended == at(240))
        #expect(listen.listened == 240 * second)
        #expect(listen.metadata == TrackMetadata(title: "Song", artists: ["Artist"], album: "Album", length: 480 * second))
    }

    @Test("store keys carry the player's unique name and split back")
    func storeKeys() {
        let listen = Listen(key: "1700000000000000-3", metadata: track(), started: 0, ended: 0, listened: 0)
        #expect(listen.storeKey(player: ":1.42") == ":1.42 1700000000000000-3")
        #expect(Listen.parseStoreKey(":1.42 1700000000000000-3")! == (":1.42", "1700000000000000-3"))
        #expect(Listen.parseStoreKey("nospace") == nil)
    }

    @Test("quirk 25 end to end: effects applied to a store, a crash, a restart — the listen is recorded once")
    func endToEndWithStore() async throws {
        let store = try HistoryStore.inMemory()
        func apply(_ effects: [ListenEffect]) async throws {
            for effect in effects {
                let listen = effect.listen
                let key = listen.storeKey(player: player)
                let asset = listen.asset(appID: "mpv", appName: "mpv", appIcon: nil)!
                switch effect {
                case .opened, .checkpoint: try await answer { store.saveOpenListen(key: key, asset: asset, checkpoint: listen.ended, completion: $0) }
                case .finished: _ = try await answer { store.finishOpenListen(key: key, asset: asset, completion: $0) }
                case .dropped: try await answer { store.removeOpenListen(key: key, completion: $0) }
                }
            }
        }
        var firstRun = PlayerListening()
        try await apply(firstRun.handle(.metadata(track(length: 480 * second)), at: at(0)))
        try await apply(firstRun.handle(.playbackStatus(.playing), at: at(0)))
        try await apply(firstRun.handle(.tick, at: at(240)))
        // kill -9 at 250: nothing more is written. The restart finds the open listen.
        let records = try await answer { store.openListens(completion: $0) }
        #expect(records.count == 1)
        let resumed = PlayerListening(
            resuming: Listen(restoring: records[0]), metadata: track(length: 480 * second), status: .playing, at: at(260))
        var secondRun = try #require(resumed)
        try await apply(secondRun.handle(.tick, at: at(260)))
        try await apply(secondRun.handle(.playbackStatus(.stopped), at: at(480)))
        #expect(try await answer { store.openListens(completion: $0) }.isEmpty)
        let recent = try await store.recentPage(RecentQuery())
        #expect(recent.count == 1)
        #expect(recent.first?.started == at(0))
        #expect(recent.first?.listened == 480 * second)
    }
}
