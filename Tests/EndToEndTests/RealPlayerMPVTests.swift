import Foundation
import MediaDonationClient
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// mpv's JSON IPC (`--input-ipc-server`): one command per line; replies are not read.
final class MPVControl: Sendable {
    private let descriptor: Int32

    /// Connects to mpv's socket once mpv has made it.
    init(socket path: String) throws {
        try waitUntil("mpv opens its IPC socket") { FileManager.default.fileExists(atPath: path) }
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket() failed: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw TestSupportError("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw TestSupportError("cannot connect to mpv at \(path): errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// Sends one command, e.g. `["set_property", "pause", true]`.
    func send(_ command: [Any]) throws {
        var line = try JSONSerialization.data(withJSONObject: ["command": command])
        line.append(0x0A)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else { throw TestSupportError("writing to mpv failed: errno \(errno)") }
    }
}

/// Issue 3's acceptance on a real player: an mpv playlist steered through pause, seek, next,
/// previous, stop and quit gives exactly the listens that were played.
@Suite(.serialized) struct RealPlayerMPVTests {
    @Test("an mpv playlist with pause, seek, next, previous, stop and quit gives exactly the expected assets")
    func steeredPlaylist() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "1"])
        let client = try broker.client()
        let media = try TemporaryDirectory(prefix: "mpv-playlist")
        let files = ["a", "b"].map { media.appending("\($0).ogg") }
        for (file, name) in zip(files, ["Track A", "Track B"]) {
            try AudioFixture.makeTaggedTrack(at: file, title: name, artist: "Sine", album: "Tests", seconds: 10)
        }
        let socket = media.appending("mpv.sock")
        // Each track's play time is bounded by two measures: from the command that starts it
        // (an upper bound) and from the moment the broker is seen playing it (a lower bound; the
        // two differ by how long mpv takes to open the file, which grows when the machine is busy).
        let clock = PlayClock()
        var sent = clock.now
        let mpv = try MPVPlayer.launch(playing: files, on: bus, ipcSocket: socket, extraArguments: ["--idle=yes"])
        let control = try MPVControl(socket: socket)
        func waitForTitle(_ title: String) async throws -> ContinuousClock.Instant {
            do {
                try await waitUntil("mpv plays \(title)") { try await client.nowPlaying().map(\.title) == [title] }
            } catch {
                let players = try await client.status().players
                Issue.record("now playing: \(try await client.nowPlaying().map(\.title)), players: \(players)\n\(mpv.process.transcript)")
                throw error
            }
            return clock.now
        }
        func waitForStatus(_ status: String) async throws {
            try await waitUntil("mpv is \(status)") { try await client.status().players.first?.playbackStatus == status }
        }

        // Track A: 1 s, a pause of 0.7 s that does not count, 0.5 s, a seek forward that adds
        // nothing, 0.5 s more; then next.
        var began = try await waitForTitle("Track A")
        try await clock.play(for: .seconds(1))
        try control.send(["set_property", "pause", true])
        let paused = clock.now
        try await waitForStatus("Paused")
        try await clock.play(for: .milliseconds(700))
        try control.send(["set_property", "pause", false])
        let pausedFor = clock.now - paused
        try await waitForStatus("Playing")
        try await clock.play(for: .milliseconds(500))
        try control.send(["seek", 6, "absolute"])
        try await clock.play(for: .milliseconds(500))
        try control.send(["playlist-next"])
        let heardA = (clock.now - began - pausedFor, clock.now - sent - pausedFor)
        sent = clock.now

        // Track B: 1.2 s, then previous.
        began = try await waitForTitle("Track B")
        try await clock.play(for: .milliseconds(1200))
        try control.send(["playlist-prev"])
        let heardB = (clock.now - began, clock.now - sent)
        sent = clock.now

        // Track A again: 1.2 s, then stop.
        began = try await waitForTitle("Track A")
        try await clock.play(for: .milliseconds(1200))
        try control.send(["stop"])
        let heardA2 = (clock.now - began, clock.now - sent)
        try await waitForStatus("Stopped")

        // Quit the idle player: it leaves the bus, and nothing more is recorded. (mpv-mpris 0.9
        // does not announce a file loaded into an idle mpv as Playing, so the playlist ends here.)
        try control.send(["quit"])
        #expect(try mpv.process.waitForExit(timeout: .seconds(10)) == .exited(0))
        try await broker.waitUntilNoPlayers(client)

        let assets = try await broker.assets(client).reversed().map { $0 }
        #expect(assets.map(\.title) == ["Track A", "Track B", "Track A"], "\(assets)")
        #expect(assets.allSatisfy { $0.appID == "mpv" && $0.artist == "Sine" && $0.album == "Tests" && $0.source == .mpris })
        #expect(assets.allSatisfy { $0.length.map { abs($0 / .seconds(1) - 10) < 0.5 } ?? false })
        for (asset, heard) in zip(assets, [heardA, heardB, heardA2]) {
            let listened = try #require(asset.listened)
            #expect(listened >= heard.0 - .milliseconds(500) && listened <= heard.1 + .milliseconds(500),
                    "\(asset.title ?? "?"): listened \(listened), heard between \(heard.0) and \(heard.1)")
        }
    }
}
