import Foundation
import Glibc
import MediaDonationClient
import TestSupport
import Testing
@testable import broker_ctl

@Suite struct FollowTests {
    @Test func parsesWithAndWithoutJSON() throws {
        #expect(try parse(["follow"], as: FollowCommand.self) == FollowCommand())
        #expect(try parse(["follow", "--json"], as: FollowCommand.self) == FollowCommand(printsJSON: true))
        #expect(usageError(["follow", "mpv"])?.message == "unexpected argument 'mpv'")
        #expect(usageError(["follow", "--since", "1h"])?.message == "unknown option '--since'")
    }

    @Test func aHumanLineHasTheLocalTimeAndWhatIsKnown() {
        #expect(
            FollowOutput.line(.sample(), timeZone: plusTwo)
                == "2026-11-29 15:00  Teardrop — Massive Attack (Mezzanine) · mpv\n")
        #expect(FollowOutput.line(.bare(id: 1, started: "2026-11-29T13:00:00Z"), timeZone: utc) == "2026-11-29 13:00  -\n")
        var odd = GenericMedia.sample()
        odd.title = "Line\nbreak"
        odd.appID = nil
        #expect(
            FollowOutput.line(odd, timeZone: utc)
                == "2026-11-29 13:00  Line break — Massive Attack (Mezzanine) · mpv Media Player\n")
    }

    @Test func aJSONLineHasTheKeysOfRecent() {
        #expect(FollowOutput.jsonLine(.sample()) == RecentOutput.jsonLines([.sample()]))
    }

    /// Runs `follow`, feeds it listens one by one and checks each is printed, on its own write,
    /// before the next arrives: what a pipe reader sees at once.
    private func follow(
        _ words: [String], until end: (AsyncStream<GenericMedia>.Continuation, AsyncStream<Int32>.Continuation) -> Void,
        mediaEnabled: Bool = true
    ) async throws -> (run: Invocation, output: CapturedText) {
        let (added, feed) = AsyncStream.makeStream(of: GenericMedia.self)
        let (stops, stopper) = AsyncStream.makeStream(of: Int32.self)
        let broker = FakeBroker(mediaAdded: .success(added), mediaEnabled: mediaEnabled)
        let output = CapturedText()
        async let run = runBrokerCtl(words, broker: broker, timeZone: plusTwo, stopSignals: stops, output: output)
        for (index, item) in [GenericMedia.sample(id: 1), .sample(id: 2, started: "2026-11-29T13:05:00Z")].enumerated() {
            feed.yield(item)
            // A generous deadline: with every suite running in parallel on two cores, the task printing
            // the line can wait a long time for a thread of the cooperative pool.
            try await waitUntil("line \(index + 1) is printed", timeout: .seconds(60)) {
                await Task.yield()
                return output.writes.count == index + 1
            }
        }
        end(feed, stopper)
        return (await run, output)
    }

    @Test func printsEachListenAsItArrivesAndCtrlCExits0() async throws {
        let (run, output) = try await follow(["follow"]) { _, stopper in stopper.yield(SIGINT) }
        #expect(run.exitCode == 0)
        #expect(run.standardError == "")
        #expect(
            output.writes == [
                "2026-11-29 15:00  Teardrop — Massive Attack (Mezzanine) · mpv\n",
                "2026-11-29 15:05  Teardrop — Massive Attack (Mezzanine) · mpv\n",
            ])
    }

    @Test func jsonPrintsOneObjectPerLineAndSIGTERMExits0() async throws {
        let (run, output) = try await follow(["follow", "--json"]) { _, stopper in stopper.yield(SIGTERM) }
        #expect(run.exitCode == 0)
        #expect(output.writes == [FollowOutput.jsonLine(.sample(id: 1)), FollowOutput.jsonLine(.sample(id: 2, started: "2026-11-29T13:05:00Z"))])
        for line in output.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["title"] as? String == "Teardrop")
        }
    }

    @Test func theStreamEndingExits1WithAMessage() async throws {
        let (run, output) = try await follow(["follow"]) { feed, _ in feed.finish() }
        #expect(run.exitCode == 1)
        #expect(output.writes.count == 2)
        #expect(run.standardError == "broker-ctl: \(FollowCommand.connectionLostMessage)\n")
    }

    @Test func mediaSwitchedOffIsPointedOutButFollowingGoesOn() async throws {
        let (run, output) = try await follow(["follow"], until: { _, stopper in stopper.yield(SIGINT) }, mediaEnabled: false)
        #expect(run.exitCode == 0)
        #expect(run.standardError == FollowCommand.mediaOffNote)
        #expect(output.writes.count == 2)
    }

    @Test func aBrokerThatCannotBeReachedExits1AtOnce() async {
        let broker = FakeBroker(failures: ["isMediaEnabled": .brokerNotRunning])
        let run = await runBrokerCtl(["follow"], broker: broker)
        #expect(run.exitCode == 1)
        #expect(run.standardError.hasPrefix("broker-ctl: the media broker is not running"))
        let unsubscribable = FakeBroker(mediaAdded: .failure(.busUnavailable("no bus")))
        #expect(await runBrokerCtl(["follow"], broker: unsubscribable).standardError == "broker-ctl: cannot reach the session bus: no bus\n")
    }

    @Test func aBrokerWithoutTheToggleIsStillFollowed() async throws {
        let (added, feed) = AsyncStream.makeStream(of: GenericMedia.self)
        let broker = FakeBroker(
            mediaAdded: .success(added),
            failures: ["isMediaEnabled": .busFailure(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no")])
        feed.yield(.sample())
        feed.finish()
        let run = await runBrokerCtl(["follow"], broker: broker)
        #expect(run.exitCode == 1)
        #expect(run.standardOutput == FollowOutput.line(.sample(), timeZone: utc))
        #expect(run.standardError == "broker-ctl: \(FollowCommand.connectionLostMessage)\n")
    }

    @Test func theFirstEndingWinsAndTheOtherIsCancelled() async {
        let (stops, stopper) = AsyncStream.makeStream(of: Int32.self)
        stopper.yield(SIGINT)
        // A printer that would never end on its own: the stop must cancel it.
        let ending = await FollowCommand.firstEnding(printing: { try? await Task.sleep(for: .seconds(3600)) }, until: stops)
        #expect(ending == .stopped)
    }

    @Test func theStandardOutputWriterHandsEachLineToThePipeAtOnce() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        TextWriter(fileDescriptor: ends[1]).write("one line\n")
        var buffer = [UInt8](repeating: 0, count: 64)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(count == 9)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "one line\n")
    }
}

/// The live signal watcher, with real signals sent to this process.
@Suite(.serialized, .timeLimit(.minutes(1))) struct StopSignalsTests {
    /// Sent the moment `watch` returns: the handler is in place by then, so none is lost.
    @Test func sigintAndSigtermArriveOnTheStreamInsteadOfEndingTheProcess() async throws {
        let stream = StopSignals.watch([SIGINT, SIGTERM])
        var iterator = stream.makeAsyncIterator()
        kill(getpid(), SIGTERM)
        #expect(await iterator.next() == SIGTERM)
        kill(getpid(), SIGINT)
        #expect(await iterator.next() == SIGINT)
    }

    @Test func everyWatcherOfASignalGetsIt() async throws {
        let first = StopSignals.watch([SIGUSR1])
        let second = StopSignals.watch([SIGUSR1, SIGTERM])
        kill(getpid(), SIGUSR1)
        var one = first.makeAsyncIterator()
        var two = second.makeAsyncIterator()
        #expect(await one.next() == SIGUSR1)
        #expect(await two.next() == SIGUSR1)
    }

    @Test func droppingTheStreamRestoresTheDefaultAction() async throws {
        do {
            let stream = StopSignals.watch([SIGUSR2])
            _ = stream
        }
        // onTermination runs when the last reference goes; the handler is SIG_DFL again.
        try await waitUntil("SIGUSR2 is back to its default action") {
            await Task.yield()
            var action = sigaction()
            sigaction(SIGUSR2, nil, &action)
            return action.__sigaction_handler.sa_handler == nil
        }
    }
}
