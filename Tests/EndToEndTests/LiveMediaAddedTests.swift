import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 3 §4: a journaling app following the broker hears of an asset as soon as it is recorded.
@Suite struct LiveMediaAddedTests {
    /// Moves what `stream` delivers into a mailbox the test takes from with a deadline; the task
    /// ends with the stream (when the client goes away).
    func collect(_ stream: AsyncStream<GenericMedia>) -> Mailbox<GenericMedia> {
        let mailbox = Mailbox<GenericMedia>()
        Task { for await media in stream { mailbox.put(media) } }
        return mailbox
    }

    @Test("mediaAdded() delivers the asset within 1 s of the player's Stop")
    func mediaAddedIsPrompt() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"])
        let client = try broker.client()
        let added = try await collect(client.mediaAdded())
        let player = try await ScriptedPlayer(bus: bus, name: "live")
        try player.play(title: "Heard Live")
        try await player.waitUntilSeen(by: client, as: "Playing")
        try await PlayClock().play(for: .milliseconds(700))
        let clock = ContinuousClock()
        let stoppedAt = clock.now
        try player.stop()
        let media = try await added.take(timeout: .seconds(5))
        let latency = clock.now - stoppedAt
        #expect(media.title == "Heard Live")
        #expect(media.id != GenericMedia.notRecorded)
        #expect(latency < .seconds(1), "MediaAdded arrived \(latency) after Stop")
        #expect(try await client.recentMedia().map(\.id) == [media.id])
    }

    @Test("each recorded asset arrives once, in order")
    func eachOnceInOrder() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.3"])
        let client = try broker.client()
        let added = try await collect(client.mediaAdded())
        let player = try await ScriptedPlayer(bus: bus, name: "live")
        for title in ["One", "Two", "Three"] {
            try await player.playThrough(ScriptedPlayer.metadata(title: title), for: .milliseconds(400), seenBy: client)
        }
        var titles: [String] = []
        for _ in 0..<3 { titles.append(try await added.take().title ?? "?") }
        #expect(titles == ["One", "Two", "Three"])
        #expect(added.count == 0, "nothing arrives twice")
        #expect(try await client.recentMedia().count == 3)
    }
}
