@testable import MediaBroker
import SwiftDBus
import Testing
@testable import BrokerCore
import CoreFixtures

/// Which players the core follows and what it reads from them, with no bus: names, limits, the
/// sender and path a signal is believed from, reads asked again, answers that come too late.
@Suite("PlayersCore: following players")
struct PlayersCoreFollowingTests {
    @Test("a new MPRIS name is followed: its process, identity and properties are asked for")
    func meeting() throws {
        let harness = PlayersCoreHarness()
        let actions = harness.feed(.nameOwnerChanged(name: "org.mpris.MediaPlayer2.vlc", old: "", new: ":1.5"))
        let ref = try #require(harness.meet("org.mpris.MediaPlayer2.other", as: ":1.6"))
        #expect(ref.uniqueName == ":1.6")
        let first = PlayerRef(uniqueName: ":1.5", generation: 1)
        #expect(actions.filter { if case .log = $0 { false } else { true } }
            == [.askProcessID(first), .read(first, .identity), .read(first, .player)])
        #expect(harness.core.followedPlayers().map(\.busName) == ["org.mpris.MediaPlayer2.other", "org.mpris.MediaPlayer2.vlc"])
    }

    @Test("playerctld and names outside MPRIS are never followed")
    func notPlayers() {
        let harness = PlayersCoreHarness()
        #expect(harness.feed(.nameOwnerChanged(name: "org.mpris.MediaPlayer2.playerctld", old: "", new: ":1.5")).isEmpty)
        #expect(harness.feed(.nameOwnerChanged(name: "org.example.Player", old: "", new: ":1.6")).isEmpty)
        #expect(harness.feed(.listed(names: ["org.mpris.MediaPlayer2.playerctld", "org.mpris.MediaPlayer2.mpv", ":1.9"]))
            == [.lookUpOwner("org.mpris.MediaPlayer2.mpv")])
        #expect(harness.core.followedPlayers().isEmpty)
    }

    @Test("an owner found by listing is news only when NameOwnerChanged has not told it first")
    func ownerFoundOnce() {
        let harness = PlayersCoreHarness()
        harness.meet("org.mpris.MediaPlayer2.mpv", as: ":1.5")
        #expect(harness.feed(.ownerFound(name: "org.mpris.MediaPlayer2.mpv", owner: ":1.5")).isEmpty)
    }

    @Test("beyond 256 players none is followed, with one log line until some leave")
    func playerLimit() {
        let harness = PlayersCoreHarness()
        for index in 0..<PlayersCore.maximumPlayers { harness.meet("org.mpris.MediaPlayer2.p\(index)", as: ":1.\(index)") }
        harness.forgetActions()
        harness.meet("org.mpris.MediaPlayer2.late1", as: ":2.1")
        harness.meet("org.mpris.MediaPlayer2.late2", as: ":2.2")
        #expect(harness.logLines.filter { $0.contains("already following") }.count == 1)
        #expect(harness.core.appID(ofPlayer: ":2.1") == nil)
        harness.feed(.nameOwnerChanged(name: "org.mpris.MediaPlayer2.p0", old: ":1.0", new: ""))
        #expect(harness.meet("org.mpris.MediaPlayer2.late3", as: ":2.3") != nil)
        harness.meet("org.mpris.MediaPlayer2.late4", as: ":2.4")
        #expect(harness.logLines.filter { $0.contains("already following") }.count == 2)
    }

    @Test("one connection is followed under at most 64 names, logged once")
    func nameLimit() {
        let harness = PlayersCoreHarness()
        for index in 0..<(PlayersCore.maximumNamesPerConnection + 3) {
            harness.feed(.nameOwnerChanged(name: "org.mpris.MediaPlayer2.tab\(index)", old: "", new: ":1.5"))
        }
        #expect(harness.core.followedPlayers().count == PlayersCore.maximumNamesPerConnection)
        #expect(harness.logLines.filter { $0.contains("owns more than") }.count == 1)
    }

    @Test("signals are believed only from the owner of a player name, for the MPRIS object path")
    func signalsBelieved() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "Teardrop")
        harness.forgetActions()
        let paused = try PropertiesChangedReadingTests.body(PropertiesChangedReadingTests.signal(["PlaybackStatus": .string("Paused")]))
        #expect(harness.feed(.propertiesChanged(sender: ":1.9", path: PlayersCore.mprisPath, body: paused)).isEmpty)
        #expect(harness.feed(.propertiesChanged(sender: ":1.5", path: "/org/mpris/MediaPlayer2/other", body: paused)).isEmpty)
        #expect(harness.feed(.seeked(sender: ":1.9", path: PlayersCore.mprisPath, position: 0)).isEmpty)
        #expect(harness.core.followedPlayers().first?.playbackStatus == "Playing")
        harness.feed(.propertiesChanged(sender: ":1.5", path: PlayersCore.mprisPath, body: paused))
        #expect(harness.core.followedPlayers().first?.playbackStatus == "Paused")
    }

    @Test("a repeat of a signal that started no read is only counted, as long as nothing else came in between")
    func repeatDropped() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "Teardrop")
        #expect(harness.core.repeatedSignal(from: ":1.5") == nil)
        let paused = try PropertiesChangedReadingTests.body(PropertiesChangedReadingTests.signal(["PlaybackStatus": .string("Paused")]))
        harness.feed(.propertiesChanged(sender: ":1.5", path: PlayersCore.mprisPath, body: paused))
        #expect(harness.core.repeatedSignal(from: ":1.5") == [])
        #expect(harness.core.repeatedSignal(from: ":1.5") == [])
        #expect(harness.core.repeatedSignal(from: ":1.9") == nil)
        // Every signal counts towards the next check of who is on the bus, repeats too.
        let repeats = (2...PlayersCore.signalsBetweenNameChecks).flatMap { _ in harness.core.repeatedSignal(from: ":1.5") ?? [] }
        #expect(repeats == [.listNames])
    }

    @Test("the same signal after something else reached the core is read again, not dropped as a repeat")
    func repeatAfterChange() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "Teardrop")
        let paused = try PropertiesChangedReadingTests.body(PropertiesChangedReadingTests.signal(["PlaybackStatus": .string("Paused")]))
        harness.feed(.propertiesChanged(sender: ":1.5", path: PlayersCore.mprisPath, body: paused))
        harness.answer(ref, ["PlaybackStatus": .string("Playing")])
        #expect(harness.core.followedPlayers().first?.playbackStatus == "Playing")
        #expect(harness.core.repeatedSignal(from: ":1.5") == nil)
        harness.feed(.propertiesChanged(sender: ":1.5", path: PlayersCore.mprisPath, body: paused))
        #expect(harness.core.followedPlayers().first?.playbackStatus == "Paused")
    }

    @Test("a signal that started a read is never dropped as a repeat: the same again starts the read again (quirk 11)")
    func repeatOfReadNotDropped() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "One")
        let invalidated = try PropertiesChangedReadingTests.body(PropertiesChangedReadingTests.signal([:], invalidated: ["PlaybackStatus"]))
        #expect(harness.feed(.propertiesChanged(sender: ":1.5", path: PlayersCore.mprisPath, body: invalidated)).contains(.read(ref, .player)))
        #expect(harness.core.repeatedSignal(from: ":1.5") == nil)
    }

    @Test("a new track without its status reads the player again (quirk 10); an invalidated property too (quirk 11)")
    func rereads() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "One")
        let newTrack = try PropertiesChangedReadingTests.body(PropertiesChangedReadingTests.signal(["Metadata": PlayersCoreHarness.track("Two")]))
        #expect(harness.feed(.propertiesChanged(sender: ":1.5", path: PlayersCore.mprisPath, body: newTrack)).contains(.read(ref, .player)))
        let invalidated = try PropertiesChangedReadingTests.body(PropertiesChangedReadingTests.signal([:], invalidated: ["PlaybackStatus"]))
        #expect(harness.feed(.propertiesChanged(sender: ":1.5", path: PlayersCore.mprisPath, body: invalidated)).contains(.read(ref, .player)))
        let root = try PropertiesChangedReadingTests.body(PropertiesChangedReadingTests.signal(["Identity": .string("New")], interface: "org.mpris.MediaPlayer2"))
        #expect(harness.feed(.propertiesChanged(sender: ":1.5", path: PlayersCore.mprisPath, body: root)).contains(.read(ref, .identity)))
    }

    @Test("an identity that fails is asked again, sooner once the player interface answers; the app waits for an answer")
    func identityAskedAgain() throws {
        let harness = PlayersCoreHarness()
        let ref = try #require(harness.meet("org.mpris.MediaPlayer2.firefox.instance_1_5", as: ":1.5"))
        harness.feed(.processFound(ref, FakeProcess.connected(77)))
        let failed = harness.feed(.answered(ref, .identity, .failure(.failed("no such object"))))
        #expect(failed.contains(.arm(.identityRetry(ref), after: ReadRetry.firstDelay)))
        #expect(!failed.contains { if case .resolveApp = $0 { true } else { false } })
        let answered = harness.feed(.answered(ref, .player, .success([.vardict(["PlaybackStatus": .string("Stopped")])])))
        #expect(answered.contains(.cancel(.identityRetry(ref))) && answered.contains(.read(ref, .identity)))
        let identity = harness.feed(.answered(ref, .identity, .success([.vardict(["DesktopEntry": .string("firefox-esr")])])))
        #expect(identity.contains(.resolveApp(ref, PlayerClues(busName: "org.mpris.MediaPlayer2.firefox.instance_1_5",
                                                                desktopEntry: "firefox-esr", identity: nil, process: FakeProcess.connected(77)))))
    }

    @Test("an identity never told is given up on after ReadRetry's patience: the app comes from the name and process")
    func identityGivenUp() throws {
        let harness = PlayersCoreHarness()
        let ref = try #require(harness.meet("org.mpris.MediaPlayer2.mute", as: ":1.5"))
        harness.feed(.processFound(ref, FakeProcess.connected(9)))
        var resolved: [PlayerClues] = []
        for _ in 0..<40 where resolved.isEmpty {
            let actions = harness.feed(.answered(ref, .identity, .failure(.failed("no"))))
            resolved = actions.compactMap { if case .resolveApp(_, let clues) = $0 { clues } else { nil } }
            harness.advance(by: ReadRetry.longestDelay)
        }
        #expect(resolved == [PlayerClues(busName: "org.mpris.MediaPlayer2.mute", process: FakeProcess.connected(9))])
        #expect(harness.logLines.contains { $0.contains("never told its identity") })
    }

    @Test("the app is resolved only once the bus daemon told the process")
    func resolveWaitsForProcess() throws {
        let harness = PlayersCoreHarness()
        let ref = try #require(harness.meet("org.mpris.MediaPlayer2.vlc", as: ":1.5"))
        let answer = harness.feed(.answered(ref, .identity, .success([.vardict(["Identity": .string("VLC")])])))
        #expect(!answer.contains { if case .resolveApp = $0 { true } else { false } })
        #expect(harness.feed(.processFound(ref, nil)).contains(.resolveApp(ref, PlayerClues(busName: "org.mpris.MediaPlayer2.vlc", identity: "VLC"))))
    }

    @Test("answers and timers for a player that left are ignored, even when its connection takes a name again")
    func staleAnswers() throws {
        let harness = PlayersCoreHarness()
        let old = try #require(harness.meet("org.mpris.MediaPlayer2.a", as: ":1.5"))
        harness.feed(.nameOwnerChanged(name: "org.mpris.MediaPlayer2.a", old: ":1.5", new: ""))
        let new = try #require(harness.meet("org.mpris.MediaPlayer2.b", as: ":1.5"))
        #expect(old != new)
        #expect(harness.feed(.answered(old, .player, .success([.vardict(["Metadata": PlayersCoreHarness.track("Ghost"),
                                                                         "PlaybackStatus": .string("Playing")])]))).isEmpty)
        #expect(harness.feed(.timerFired(.reread(old))).isEmpty)
        #expect(harness.feed(.appResolved(old, AppIdentity(appID: "ghost", appName: nil, appIcon: nil, source: .busName))).isEmpty)
        #expect(harness.core.nowPlaying().isEmpty)
    }

    @Test("a playing player is re-read every interval; nothing is armed while nothing plays")
    func safetyReread() throws {
        let harness = PlayersCoreHarness(rereadInterval: 10 * second)
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "One")
        #expect(harness.timers[.reread(ref)] != nil)
        harness.forgetActions()
        harness.advance(by: 10 * second)
        #expect(harness.actions.contains(.read(ref, .player)))
        harness.stopPlaying(ref)
        #expect(harness.timers[.reread(ref)] == nil)
    }

    @Test("Paused with no position asks where the player is; Paused at the track's end ends the listen")
    func pausedAtEnd() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.firefox", as: ":1.5")
        harness.play(ref, "Short", length: 60 * second)
        harness.advance(by: 60 * second)
        harness.forgetActions()
        harness.answer(ref, ["PlaybackStatus": .string("Paused")])
        #expect(harness.actions.contains(.read(ref, .position)))
        harness.feed(.answered(ref, .position, .success([.variant(.int64(60 * second - 200_000))])))
        #expect(harness.recorded.map(\.title) == ["Short"])
    }

    @Test("the deadline timer is armed once while later deadlines keep it, and re-armed for an earlier one")
    func deadlineKept() throws {
        let harness = PlayersCoreHarness()
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        harness.play(ref, "One")
        let armedAt = try #require(harness.timers[.deadline(ref)])
        harness.forgetActions()
        harness.answer(ref, ["Metadata": PlayersCoreHarness.track("Two"), "PlaybackStatus": .string("Playing")])
        #expect(!harness.actions.contains { if case .arm(.deadline, _) = $0 { true } else { false } })
        #expect(harness.timers[.deadline(ref)] == armedAt)
        harness.stopPlaying(ref)
        #expect(harness.timers[.deadline(ref)] == nil)
    }
}
