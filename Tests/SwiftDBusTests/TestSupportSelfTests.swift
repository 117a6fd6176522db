// The test helpers themselves: private buses, child processes, waiting, fixtures, a real player.

import Foundation
import Testing
import TestSupport

@Suite struct PrivateBusTests {
    @Test func answersAPingOnItsOwnAddress() throws {
        let bus = try PrivateBus.start()
        let ping = try ChildProcess.run(
            "dbus-send",
            arguments: ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/", "org.freedesktop.DBus.Peer.Ping"],
            environment: bus.environment)
        #expect(ping.status == .exited(0), "\(ping.standardError)")
        #expect(bus.address.hasPrefix("unix:path=\(bus.directory.path)/"))
    }

    @Test func twoBusesShareNothing() throws {
        let first = try PrivateBus.start()
        let second = try PrivateBus.start()
        #expect(first.address != second.address)
        #expect(try first.listNames().contains("org.freedesktop.DBus"))
    }

    @Test func stopEndsTheDaemonAndRemovesItsDirectory() throws {
        let bus = try PrivateBus.start()
        bus.stop()
        #expect(!bus.daemon.isRunning)
        #expect(!FileManager.default.fileExists(atPath: bus.directory.path))
        bus.stop()  // a second stop does nothing
    }

    @Test func activatesServicesFromItsServiceDirectoryOnly() throws {
        let services = try TemporaryDirectory()
        let track = services.appending("track.ogg")
        try AudioFixture.makeTaggedTrack(at: track, title: "T", artist: "A", album: "B", seconds: 1)
        try """
            [D-BUS Service]
            Name=org.mpris.MediaPlayer2.mpv
            Exec=/usr/bin/mpv --no-config --no-terminal --no-video --ao=null --script=\(try MPVPlayer.mprisScript()) \(track)
            """.write(toFile: services.appending("mpv.service"), atomically: true, encoding: .utf8)
        let bus = try PrivateBus.start(serviceDirectory: services.path)

        let reply = try bus.callBusDriver("StartServiceByName", "string:org.mpris.MediaPlayer2.mpv", "uint32:0")
        #expect(reply.contains("uint32 1"), "DBUS_START_REPLY_SUCCESS expected: \(reply)")
        #expect(throws: TestSupportError.self) {
            try bus.callBusDriver("StartServiceByName", "string:org.freedesktop.Notifications", "uint32:0")
        }
    }
}

@Suite struct ChildProcessTests {
    @Test func capturesBothStreamsAndTheExitCode() throws {
        let result = try ChildProcess.run("sh", arguments: ["-c", "echo out; echo err >&2; exit 3"])
        #expect(result.status == .exited(3))
        #expect(result.standardOutput == "out\n")
        #expect(result.standardError == "err\n")
    }

    @Test func reportsTheSignalThatEndedIt() throws {
        let child = try ChildProcess.launch("sh", arguments: ["-c", "echo ready; exec sleep 60"])
        try child.waitForOutput(containing: "ready", in: .standardOutput, timeout: .seconds(10))
        #expect(child.isRunning)
        child.signal(SIGTERM)
        #expect(try child.waitForExit(timeout: .seconds(10)) == .signalled(SIGTERM))
        #expect(!child.isRunning)
    }

    @Test func aChattyChildNeverBlocks() throws {
        let result = try ChildProcess.run(
            "sh", arguments: ["-c", "head -c 1000000 /dev/zero | tr '\\0' x; head -c 300000 /dev/zero | tr '\\0' y >&2"])
        #expect(result.status == .exited(0))
        #expect(result.standardOutput.utf8.count == 1_000_000)
        #expect(result.standardError.utf8.count == 300_000)
    }

    @Test func startsFromACleanEnvironmentWithoutTheSessionBus() throws {
        let directory = try TemporaryDirectory()
        let result = try ChildProcess.run(
            "sh", arguments: ["-c", "env; pwd"], environment: ["GIVEN": "yes"], workingDirectory: directory.path)
        #expect(!result.standardOutput.contains("DBUS_SESSION_BUS_ADDRESS="))
        #expect(result.standardOutput.contains("GIVEN=yes\n"))
        #expect(result.standardOutput.hasSuffix("\(directory.path)\n"))
    }

    @Test func waitingForOutputFailsEarlyWhenTheStreamCloses() throws {
        let child = try ChildProcess.launch("sh", arguments: ["-c", "echo something else"])
        #expect(throws: TestSupportError.self) {
            try child.waitForOutput(containing: "never printed", in: .standardOutput, timeout: .seconds(30))
        }
    }

    @Test func aMissingProgramIsAClearError() {
        #expect(throws: TestSupportError.self) {
            try ChildProcess.launch("no-such-program-here", arguments: [])
        }
    }

    @Test func aRunThatOutlivesItsTimeoutIsAnError() {
        #expect(throws: TestSupportError.self) {
            try ChildProcess.run("sleep", arguments: ["60"], timeout: .milliseconds(200))
        }
    }
}

@Suite struct WaitingTests {
    @Test func timesOutWithTheDescription() {
        let start = ContinuousClock.now
        let error = #expect(throws: WaitTimeout.self) {
            try waitUntil("pigs fly", timeout: .milliseconds(100)) { false }
        }
        #expect(error?.description.contains("pigs fly") == true)
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func returnsOnceTheConditionHolds() throws {
        var checks = 0
        try waitUntil("the third check") {
            checks += 1
            return checks == 3
        }
        #expect(checks == 3)
    }

    @Test func theAsyncFormTimesOutToo() async {
        await #expect(throws: WaitTimeout.self) {
            try await waitUntil("an async never", timeout: .milliseconds(50)) { () async in false }
        }
    }

    @Test func temporaryDirectoriesRemoveThemselves() throws {
        let directory = try TemporaryDirectory()
        try "x".write(toFile: directory.appending("file"), atomically: true, encoding: .utf8)
        directory.remove()
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func findsTheBuiltExecutables() throws {
        #expect(try BuiltProducts.path(of: "broker-ctl").hasSuffix("/broker-ctl"))
        #expect(throws: TestSupportError.self) { try BuiltProducts.path(of: "no-such-product") }
    }
}

@Suite struct PlayerFixtureTests {
    @Test func theAudioFixtureCarriesItsTags() throws {
        let directory = try TemporaryDirectory()
        let track = directory.appending("track.ogg")
        try AudioFixture.makeTaggedTrack(at: track, title: "Blue Train", artist: "John Coltrane", album: "Blue Train", seconds: 1)
        let tags = try AudioFixture.tags(of: track)
        #expect(tags["title"] == "Blue Train")
        #expect(tags["artist"] == "John Coltrane")
        #expect(tags["album"] == "Blue Train")
    }

    @Test func mpvPlaysTheFixtureOnAPrivateBusAndOwnsItsMPRISName() throws {
        let directory = try TemporaryDirectory()
        let track = directory.appending("track.ogg")
        try AudioFixture.makeTaggedTrack(at: track, title: "So What", artist: "Miles Davis", album: "Kind of Blue", seconds: 2)
        let bus = try PrivateBus.start()

        let player = try MPVPlayer.launch(playing: [track], on: bus)
        #expect(try player.waitForBusName() == MPVPlayer.firstBusName)

        let metadata = { () throws -> String in
            try ChildProcess.run(
                "dbus-send",
                arguments: ["--session", "--print-reply", "--dest=\(MPVPlayer.firstBusName)", "/org/mpris/MediaPlayer2",
                            "org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player", "string:Metadata"],
                environment: bus.environment
            ).standardOutput
        }
        try waitUntil("mpv-mpris reports the tags") {
            let printed = try metadata()
            return printed.contains("\"So What\"") && printed.contains("\"Miles Davis\"") && printed.contains("\"Kind of Blue\"")
        }

        #expect(try player.process.waitForExit(timeout: .seconds(20)) == .exited(0))
        try waitUntil("the MPRIS name is released") { try !bus.listNames().contains(MPVPlayer.firstBusName) }
    }
}

@Suite struct BrowserFixtureTests {
    /// What python3's own client gets for `path` with `Range: range` (or none): status, the
    /// `Content-Range` header, the body's length.
    func fetch(_ url: String, range: String?) throws -> String {
        let script = """
            import sys, urllib.request
            request = urllib.request.Request(sys.argv[1])
            if len(sys.argv) > 2: request.add_header("Range", sys.argv[2])
            with urllib.request.urlopen(request) as reply:
                print(reply.status, reply.headers.get("Content-Range"), len(reply.read()))
            """
        let result = try ChildProcess.run("/usr/bin/python3", arguments: ["-c", script, url] + (range.map { [$0] } ?? []))
        guard result.status.isSuccess else { throw TestSupportError("fetching \(url) failed: \(result.standardError)") }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theWebServerAnswersRangesAsBrowsersAskForThem() throws {
        let site = try TemporaryDirectory(prefix: "site")
        try String(repeating: "x", count: 1000).write(toFile: site.appending("f.bin"), atomically: true, encoding: .utf8)
        let server = try HTTPRangeServer(serving: site.path)
        #expect(try fetch(server.url("f.bin"), range: nil) == "200 None 1000")
        #expect(try fetch(server.url("f.bin"), range: "bytes=0-9") == "206 bytes 0-9/1000 10")
        #expect(try fetch(server.url("f.bin"), range: "bytes=990-") == "206 bytes 990-999/1000 10")
        #expect(try fetch(server.url("f.bin"), range: "bytes=-5") == "206 bytes 995-999/1000 5")
        let whole = try HTTPRangeServer(serving: site.path, rangeRequests: false)
        #expect(try fetch(whole.url("f.bin"), range: "bytes=0-9") == "200 None 1000")
    }

    @Test func theNullSinkAcceptsAClient() throws {
        let sink = try PulseAudioSink()
        let info = try ChildProcess.run("pactl", arguments: ["list", "short", "sinks"], environment: sink.environment)
        #expect(info.status.isSuccess, "\(info.standardError)")
        #expect(info.standardOutput.contains("null"))
    }

    @Test func theVirtualDisplayAcceptsClients() throws {
        let first = try VirtualDisplay()
        let second = try VirtualDisplay()
        #expect(first.name != second.name)
        #expect(FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X" + first.name.dropFirst()))
    }
}
