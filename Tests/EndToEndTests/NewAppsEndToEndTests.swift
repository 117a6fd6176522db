import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 34 §2 on real parts: with `new-apps ask`, real mpv's first listen is held while the
/// person is asked through a notification server on the bus; *Record* writes it, *Don't record*
/// opts mpv out and drops it, a question left unanswered drops it; `ignore` asks nothing and
/// records only allowed apps.
@Suite(.serialized, .timeLimit(.minutes(3))) struct NewAppsEndToEndTests {
    /// A broker whose questions wait `patience` seconds, with `new-apps` set to `mode`, and a
    /// notification server answering as `behaviour` says.
    static func rig(_ behaviour: String, mode: String = "ask", patience: String = "60") throws
        -> (bus: PrivateBus, broker: RunningBroker, server: ChildProcess, media: TemporaryDirectory) {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "2", "--ask-timeout", patience])
        let server = try ChildProcess.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("notification-server.py"), behaviour],
                                             environment: bus.environment)
        try server.waitForOutput(containing: "ready", in: .standardOutput, timeout: .seconds(10))
        let set = try broker.brokerCtl(["new-apps", mode])
        #expect(set.status == .exited(0), "\(set.standardError)")
        return (bus, broker, server, try TemporaryDirectory(prefix: "media"))
    }

    /// Plays a 3 s track in mpv to its end and waits until the broker let the player go.
    static func play(_ title: String, _ rig: (bus: PrivateBus, broker: RunningBroker, server: ChildProcess, media: TemporaryDirectory))
        async throws {
        let track = rig.media.appending("\(title).ogg")
        try AudioFixture.makeTaggedTrack(at: track, title: title, artist: "Erik Satie", album: "New Apps", seconds: 3)
        let player = try MPVPlayer.launch(playing: [track], on: rig.bus)
        #expect(try player.process.waitForExit(timeout: .seconds(20)) == .exited(0))
        try await rig.broker.waitUntilNoPlayers(try rig.broker.client())
    }

    static func questions(_ server: ChildProcess) -> [Substring] {
        server.standardOutput.split(separator: "\n").filter { $0.hasPrefix("notify ") }
    }

    @Test("ask: mpv's listen is held, not written, until Record; then it is written, mpv is allowed, and the next listen asks nothing")
    func recordWritesWhatWasHeld() async throws {
        let rig = try Self.rig("allow-later")
        let client = try rig.broker.client()
        try await Self.play("Held Then Recorded", rig)
        try rig.server.waitForOutput(containing: "notify ", in: .standardOutput, timeout: .seconds(10))
        let question = try #require(Self.questions(rig.server).first)
        #expect(question.contains("Record listening from") && question.hasSuffix("record,Record,dont-record,Don’t record"), "\(question)")
        #expect(try await client.recentMedia().isEmpty, "a held listen reached the history before the answer")

        rig.server.signal(SIGUSR1)
        try await waitUntil("the held listen is written", timeout: .seconds(20)) {
            try await client.recentMedia().map(\.title) == ["Held Then Recorded"]
        }
        #expect(try await client.apps().first { $0.appID == "mpv" }?.isAllowed == true)
        try await Self.play("Allowed Since", rig)
        #expect(try await client.recentMedia().map(\.title) == ["Allowed Since", "Held Then Recorded"])
        #expect(Self.questions(rig.server).count == 1, "asked twice")
        #expect(try rig.broker.stop() == .exited(0))
    }

    @Test("ask: Don't record opts mpv out and drops what was held; nothing of mpv is written after")
    func dontRecordDrops() async throws {
        let rig = try Self.rig("deny-later")
        let client = try rig.broker.client()
        try await Self.play("Held Then Dropped", rig)
        try rig.server.waitForOutput(containing: "notify ", in: .standardOutput, timeout: .seconds(10))
        rig.server.signal(SIGUSR1)
        try await waitUntil("mpv is opted out", timeout: .seconds(20)) { try await client.optedOutApps() == ["mpv"] }
        try await Self.play("Still Out", rig)
        #expect(try await client.recentMedia().isEmpty)
        let apps = try rig.broker.brokerCtl(["apps"])
        #expect(apps.standardOutput.contains("opted out by you"), "\(apps.standardOutput)")
        #expect(try rig.broker.stop() == .exited(0))
    }

    @Test("ask: a question left unanswered is withdrawn and drops what it held; allowing mpv later records its next listen only")
    func unansweredDrops() async throws {
        let rig = try Self.rig("silent", patience: "2")
        let client = try rig.broker.client()
        try await Self.play("Never Answered", rig)
        try rig.server.waitForOutput(containing: "closed ", in: .standardOutput, timeout: .seconds(20))
        #expect(try await client.recentMedia().isEmpty)
        let apps = try rig.broker.brokerCtl(["apps"])
        #expect(apps.standardOutput.hasPrefix("New apps are recorded only once you say so"), "\(apps.standardOutput)")
        #expect(apps.standardOutput.contains("asks first"), "\(apps.standardOutput)")

        let allowed = try rig.broker.brokerCtl(["opt-in", "mpv"])
        #expect(allowed.standardOutput == "Allowed mpv: it is recorded and shown.\n", "\(allowed.standardError)")
        try await Self.play("After Allowing", rig)
        #expect(try await client.recentMedia().map(\.title) == ["After Allowing"])
        #expect(Self.questions(rig.server).count == 1)
        #expect(try rig.broker.stop() == .exited(0))
    }

    @Test("ignore: a new app is neither asked about nor recorded, and its donation is refused; an allowed one is recorded")
    func ignoreRecordsOnlyAllowed() async throws {
        let rig = try Self.rig("allow", mode: "ignore")
        let client = try rig.broker.client()
        try await Self.play("Ignored", rig)
        #expect(try await client.recentMedia().isEmpty)
        #expect(Self.questions(rig.server).isEmpty)
        await #expect(throws: MediaBrokerError.self) { _ = try await client.donate(Donation(appID: "journal", title: "Refused")) }
        try await client.setAppOptedOut("mpv", false)
        try await Self.play("Allowed", rig)
        #expect(try await client.recentMedia().map(\.title) == ["Allowed"])
        #expect(try rig.broker.stop() == .exited(0))
    }
}
