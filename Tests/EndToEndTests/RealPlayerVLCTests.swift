import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// VLC (`vlc-bin` + `vlc-plugin-base`) as a real MPRIS player.
///
/// VLC refuses to run as root. When the tests run as root (a container, CI), VLC runs as `nobody`
/// through `runuser`, which needs everything VLC touches to be reachable by another user: so this
/// test makes its own bus — an abstract socket (no file permissions) whose policy lets any user
/// connect — and its own world-readable folder for the tracks and VLC's HOME, outside the tests'
/// private TMPDIR (mode 0700). As a normal user VLC simply runs as that user. Nothing is created
/// system-wide: `nobody` exists on every Debian system.
@Suite(.serialized) struct RealPlayerVLCTests {
    static let cvlc = "/usr/bin/cvlc"

    /// A bus any local user may connect to, on an abstract socket.
    static func openBus(in directory: String) throws -> (ChildProcess, String) {
        let configuration = directory + "/bus.conf"
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:abstract=media-broker-vlc-\(UUID().uuidString)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(toFile: configuration, atomically: true, encoding: .utf8)
        let daemon = try ChildProcess.launch("dbus-daemon", arguments: ["--config-file=\(configuration)", "--nofork", "--print-address=1"])
        try daemon.waitForOutput(containing: "\n", in: .standardOutput, timeout: .seconds(10))
        let address = daemon.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        guard address.hasPrefix("unix:") else { throw TestSupportError("dbus-daemon printed no address\n\(daemon.transcript)") }
        return (daemon, address)
    }

    @Test("VLC playing two tracks gives exactly two assets")
    func twoTracks() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.cvlc) else {
            throw TestSupportError("VLC is not installed (\(Self.cvlc)); scripts/test installs vlc-bin and vlc-plugin-base")
        }
        // Outside TMPDIR so that `nobody` can reach it; removed at the end.
        let shared = "/tmp/media-broker-vlc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: shared + "/home", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o777])
        chmod(shared, 0o755)
        chmod(shared + "/home", 0o777)
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let tracks = [shared + "/one.ogg", shared + "/two.ogg"]
        try AudioFixture.makeTaggedTrack(at: tracks[0], title: "VLC One", artist: "Sine", album: "VLC Tests", seconds: 2.5)
        try AudioFixture.makeTaggedTrack(at: tracks[1], title: "VLC Two", artist: "Sine", album: "VLC Tests", seconds: 2.5)
        for track in tracks { chmod(track, 0o644) }

        let (daemon, address) = try Self.openBus(in: shared)
        defer { daemon.signal(SIGTERM) }
        let data = try TemporaryDirectory(prefix: "vlc-broker")
        let broker = try ChildProcess.launch(
            try BuiltProducts.path(of: "media-broker"),
            arguments: ["--database", data.appending("history.sqlite3"), "--verbose", "--min-listen", "1"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        defer { broker.signal(SIGTERM) }
        let client = try MediaBrokerClient(address: address, timeout: .seconds(5))
        try await waitUntil("the broker is up") { (try? await client.status()) != nil }

        let vlcArguments = ["-I", "dummy", "--control", "dbus", "-A", "dummy", "--no-video", "--play-and-exit"] + tracks
        let environment = ["DBUS_SESSION_BUS_ADDRESS": address, "HOME": shared + "/home", "XDG_RUNTIME_DIR": shared + "/home"]
        let vlc: ChildProcess
        if geteuid() == 0 {
            vlc = try ChildProcess.launch(
                "runuser", arguments: ["-u", "nobody", "--", "env"] + environment.map { "\($0.key)=\($0.value)" }.sorted()
                    + [Self.cvlc] + vlcArguments)
        } else {
            vlc = try ChildProcess.launch(Self.cvlc, arguments: vlcArguments, environment: environment)
        }
        #expect(try vlc.waitForExit(timeout: .seconds(30)) == .exited(0), "\(vlc.transcript)")
        try await waitUntil("the broker follows no player", timeout: .seconds(15)) { try await client.status().players.isEmpty }

        let assets = try await client.recentMedia().reversed().map { $0 }
        #expect(assets.map(\.title) == ["VLC One", "VLC Two"], "\(assets)\n\(broker.standardError)")
        #expect(assets.allSatisfy { $0.appID == "vlc" && $0.artist == "Sine" && $0.album == "VLC Tests" })
        #expect(assets.allSatisfy { ($0.listened ?? .zero) >= .seconds(1) && ($0.listened ?? .zero) <= .seconds(3.5) },
                "\(assets.map(\.listened))")
    }
}
