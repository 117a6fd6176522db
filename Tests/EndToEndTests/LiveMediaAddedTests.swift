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

    /// Follows `stream` in a task and answers a mailbox that receives "ended" when the task's
    /// `for await` returns.
    func watchEnd(of stream: AsyncStream<GenericMedia>) -> Mailbox<String> {
        let end = Mailbox<String>()
        Task {
            for await _ in stream {}
            end.put("ended")
        }
        return end
    }

    /// Subscribes with a client that is dropped as soon as `subscribe` has returned its stream.
    func streamOfDroppedClient(
        _ broker: RunningBroker, _ subscribe: (MediaBrokerClient) async throws -> AsyncStream<GenericMedia>
    ) async throws -> AsyncStream<GenericMedia> {
        let client = try broker.client()
        return try await subscribe(client)
    }

    @Test("mediaAdded() and mediaChanged() end when the app drops its client", arguments: ["MediaAdded", "MediaChanged"])
    func streamsEndWithTheirClient(_ signal: String) async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let stream = try await streamOfDroppedClient(broker) { client in
            signal == "MediaAdded" ? try await client.mediaAdded() : try await client.mediaChanged()
        }
        let end = watchEnd(of: stream)
        #expect(try await end.take(timeout: .seconds(10)) == "ended", "\(signal)")
    }
}
