@testable import MediaBroker
import Testing
@testable import BrokerCore
import CoreFixtures

/// "Ask me before you record a new app" in the players' core (issue 34, §2): a new app's listens
/// are held in memory, never written, while the person is asked once; the answer writes or drops
/// them; an unanswered question drops them.
@Suite("New apps: held while the person is asked")
struct PlayersCoreNewAppsTests {
    static let ask = PrivacySettings(newApps: .ask)

    static func asks(_ harness: PlayersCoreHarness) -> [String] {
        harness.actions.compactMap { if case .askAboutApp(let appID, _, _) = $0 { appID } else { nil } }
    }

    /// A listen of `title` on `ref`, played to its end (200 s, past the rule's half).
    static func listen(_ harness: PlayersCoreHarness, _ ref: PlayerRef, _ title: String) {
        harness.play(ref, title)
        harness.advance(by: 200 * second)
        harness.stopPlaying(ref)
    }

    @Test("a new app's first listen asks the person once, and nothing of it reaches the store before the answer")
    func heldAndAskedOnce() throws {
        let harness = PlayersCoreHarness(privacy: Self.ask)
        let ref = try harness.follow("org.mpris.MediaPlayer2.spotify", as: ":1.5")
        Self.listen(harness, ref, "First")
        Self.listen(harness, ref, "Second")
        #expect(Self.asks(harness) == ["spotify"])
        #expect(harness.storeWork.isEmpty, "held listens were written: \(harness.storeWork)")
    }

    @Test("Record writes the held listens as they were played, and the app is recorded from then on")
    func recordWritesHeld() throws {
        let harness = PlayersCoreHarness(privacy: Self.ask)
        let ref = try harness.follow("org.mpris.MediaPlayer2.spotify", as: ":1.5")
        let playedAt = harness.clock.wall
        Self.listen(harness, ref, "First")
        harness.play(ref, "Playing while asked")
        harness.advance(by: 30 * second)
        var answered = Self.ask
        OptOutRequest.byPerson(appID: "spotify", optedOut: false).apply(to: &answered, appID: "spotify")
        let settling = harness.feed(.privacyChanged(answered))
        #expect(settling.contains(.withdrawQuestion("spotify")))
        #expect(harness.recorded.map(\.title) == ["First"])
        harness.advance(by: 170 * second)
        harness.stopPlaying(ref)
        Self.listen(harness, ref, "After")
        #expect(harness.recorded.map(\.title) == ["First", "Playing while asked", "After"])
        #expect(harness.recorded.first?.started == playedAt, "a held listen keeps when it was played")
    }

    @Test("Don't record drops the held listens and discards the one playing; nothing is written")
    func dontRecordDrops() throws {
        let harness = PlayersCoreHarness(privacy: Self.ask)
        let ref = try harness.follow("org.mpris.MediaPlayer2.spotify", as: ":1.5")
        Self.listen(harness, ref, "First")
        harness.play(ref, "Playing while asked")
        harness.advance(by: 30 * second)
        var answered = Self.ask
        OptOutRequest.byPerson(appID: "spotify", optedOut: true).apply(to: &answered, appID: "spotify")
        harness.feed(.privacyChanged(answered))
        harness.advance(by: 170 * second)
        harness.stopPlaying(ref)
        Self.listen(harness, ref, "After")
        #expect(harness.recorded.isEmpty)
        #expect(!harness.storeWork.contains { if case .saveOpenListen = $0 { true } else { false } })
    }

    @Test("a question left unanswered drops what it held, and the app is not asked about again in this run")
    func unansweredDrops() throws {
        let harness = PlayersCoreHarness(privacy: Self.ask)
        let ref = try harness.follow("org.mpris.MediaPlayer2.spotify", as: ":1.5")
        Self.listen(harness, ref, "First")
        harness.feed(.appQuestionUnanswered(appID: "spotify"))
        Self.listen(harness, ref, "Second")
        #expect(Self.asks(harness) == ["spotify"])
        #expect(harness.recorded.isEmpty)
        #expect(harness.logLines.contains { $0.contains("went unanswered") })
    }

    @Test("an app the person allowed, and every app in record mode, is recorded without a question")
    func knownAppsNotAsked() throws {
        let allowed = PrivacySettings(newApps: .ask, allowedApps: ["vlc"])
        let harness = PlayersCoreHarness(privacy: allowed)
        let ref = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.5")
        Self.listen(harness, ref, "Known")
        #expect(Self.asks(harness).isEmpty && harness.recorded.map(\.title) == ["Known"])

        let recording = PlayersCoreHarness()
        let other = try recording.follow("org.mpris.MediaPlayer2.spotify", as: ":1.5")
        Self.listen(recording, other, "At once")
        #expect(Self.asks(recording).isEmpty && recording.recorded.map(\.title) == ["At once"])
    }

    @Test("ignore records only allowed apps, and asks nothing")
    func ignoreRecordsOnlyAllowed() throws {
        let harness = PlayersCoreHarness(privacy: PrivacySettings(newApps: .ignore, allowedApps: ["vlc"]))
        let new = try harness.follow("org.mpris.MediaPlayer2.spotify", as: ":1.5")
        let known = try harness.follow("org.mpris.MediaPlayer2.vlc", as: ":1.6")
        Self.listen(harness, new, "Ignored")
        Self.listen(harness, known, "Kept")
        #expect(Self.asks(harness).isEmpty)
        #expect(harness.recorded.map(\.title) == ["Kept"])
    }

    @Test("switching to record while asked writes what was held; pausing drops it")
    func modeAndPauseSettle() throws {
        let harness = PlayersCoreHarness(privacy: Self.ask)
        let ref = try harness.follow("org.mpris.MediaPlayer2.spotify", as: ":1.5")
        Self.listen(harness, ref, "Held")
        harness.feed(.privacyChanged(PrivacySettings()))
        #expect(harness.recorded.map(\.title) == ["Held"])

        let paused = PlayersCoreHarness(privacy: Self.ask)
        let other = try paused.follow("org.mpris.MediaPlayer2.spotify", as: ":1.5")
        Self.listen(paused, other, "Held")
        paused.feed(.privacyChanged(PrivacySettings(pausedUntil: PrivacySettings.untilResumed, newApps: .ask)))
        paused.feed(.privacyChanged(Self.ask.allowing("spotify")))
        #expect(paused.recorded.isEmpty, "a pause dropped the held listens: allowing later writes nothing of them")
    }

    @Test("at most four apps are asked about at once; a fifth new app is not held, so not recorded")
    func questionsBounded() throws {
        let harness = PlayersCoreHarness(privacy: Self.ask)
        for index in 0...ListensAwaitingAnswer.maximumQuestions {
            let ref = try harness.follow("org.mpris.MediaPlayer2.app\(index)", as: ":1.\(10 + index)")
            Self.listen(harness, ref, "Track \(index)")
        }
        #expect(Self.asks(harness).count == ListensAwaitingAnswer.maximumQuestions)
        var everyone = Self.ask
        for index in 0...ListensAwaitingAnswer.maximumQuestions { everyone.allowedApps.insert("app\(index)") }
        harness.feed(.privacyChanged(everyone))
        #expect(Set(harness.recorded.map(\.title)) == Set((0..<ListensAwaitingAnswer.maximumQuestions).map { "Track \($0)" }))
    }

    @Test("an app holds at most 64 finished listens while asked; the ones beyond are not recorded")
    func finishedListensBounded() throws {
        let harness = PlayersCoreHarness(privacy: Self.ask)
        let ref = try harness.follow("org.mpris.MediaPlayer2.flood", as: ":1.5")
        for index in 0..<(ListensAwaitingAnswer.maximumFinishedListens + 10) {
            harness.play(ref, "Track \(index)", length: 40 * second)
            harness.advance(by: 40 * second)
        }
        harness.stopPlaying(ref)
        harness.feed(.privacyChanged(Self.ask.allowing("flood")))
        #expect(harness.recorded.count == ListensAwaitingAnswer.maximumFinishedListens)
    }
}
