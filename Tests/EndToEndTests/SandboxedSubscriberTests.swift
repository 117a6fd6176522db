import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 20: live listens reach only those who may read them. A real mpv plays while a host
/// follower and sandboxed subscribers (through a real `xdg-dbus-proxy`) count the `MediaAdded`
/// they receive.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SandboxedSubscriberTests {
    static let appID = "org.example.Journal"

    /// Lines of a subscriber's output that announce a listen.
    static func added(_ subscriber: ChildProcess) -> [String] {
        subscriber.standardOutput.split(separator: "\n").filter { $0.hasPrefix("added ") }.map { String($0.dropFirst(6)) }
    }

    @Test("a sandboxed subscriber hears nothing before its grant, each listen after, none after deny")
    func subscribersHearOnlyWhileAllowed() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "1"])
        let client = try broker.client()
        let sandbox = try FlatpakSandbox(appID: Self.appID, bus: bus)
        let media = try TemporaryDirectory(prefix: "subscriber-tracks")
        let titles = (1...6).map { "Track \($0)" }
        let files = titles.map { media.appending("\($0).ogg") }
        for (file, title) in zip(files, titles) {
            try AudioFixture.makeTaggedTrack(at: file, title: title, artist: "Sine", album: "Tests", seconds: 2)
        }
        let heard = Heard()
        // Subscribed before anything plays.
        let stream = try await client.mediaAdded()
        let host = Task { for await media in stream { heard.append(media.title ?? "") } }
        defer { host.cancel() }
        func play(_ range: ClosedRange<Int>) async throws {
            let mpv = try MPVPlayer.launch(playing: Array(files[(range.lowerBound - 1)...(range.upperBound - 1)]), on: bus)
            #expect(try mpv.process.waitForExit(timeout: .seconds(30)) == .exited(0))
            try waitUntil("the host heard \(titles[range.upperBound - 1])", timeout: .seconds(15)) {
                heard.titles.contains(titles[range.upperBound - 1])
            }
        }
        let python = "/usr/bin/python3", script = FlatpakSandbox.fixture("subscriber.py")

        // Before the grant: its Subscribe is refused, and its match rule alone hears nothing.
        let early = try sandbox.launch(python, arguments: [script])
        try early.waitForOutput(containing: "refused org.mediabroker.MediaBroker1.Error.AccessDenied", in: .standardOutput, timeout: .seconds(10))
        try await play(1...2)

        // Allowed: a subscriber hears each listen.
        #expect(try broker.brokerCtl(["allow", Self.appID]).status == .exited(0))
        let allowed = try sandbox.launch(python, arguments: [script])
        try allowed.waitForOutput(containing: "subscribed", in: .standardOutput, timeout: .seconds(10))
        try await play(3...4)
        try waitUntil("the allowed subscriber heard Track 4") { Self.added(allowed).contains("Track 4") }

        // Denied: nothing more, at once. Track 6, after allowing again, is the barrier: the
        // broker's signals to one connection arrive in order, so Track 5 would have come first.
        #expect(try broker.brokerCtl(["deny", Self.appID]).status == .exited(0))
        try await play(5...5)
        #expect(try broker.brokerCtl(["allow", Self.appID]).status == .exited(0))
        try await play(6...6)
        try waitUntil("the subscriber heard Track 6") { Self.added(allowed).contains("Track 6") }

        #expect(heard.titles == titles, "the host hears everything")
        #expect(Self.added(allowed) == ["Track 3", "Track 4", "Track 6"], "\(allowed.standardOutput)")
        #expect(Self.added(early).isEmpty, "\(early.standardOutput)")
    }
}

/// Titles a follower heard, in order.
final class Heard: Sendable {
    private let list = Locked<[String]>([])
    func append(_ title: String) { list.withLock { $0.append(title) } }
    var titles: [String] { list.withLock { $0 } }
}
