// A sound server that plays into nothing, so that browsers really play media in tests.

import Foundation

/// PulseAudio with only a null sink, listening on a socket of its own: a browser given
/// ``environment`` plays audio in real time, with no sound card and no user session.
///
/// Found out by hand (Debian 12's PulseAudio 16): as root it warns ("not intended to be run as
/// root") and runs; `-n` skips `default.pa`, so nothing probes for hardware or a session bus; the
/// socket file appears once it accepts clients.
public final class PulseAudioSink: Sendable {
    public let process: ChildProcess
    private let directory: TemporaryDirectory
    private let socket: String

    /// What a client needs to play into this sink.
    public var environment: [String: String] { ["PULSE_SERVER": "unix:" + socket] }

    public init(timeout: Duration = .seconds(15)) throws {
        directory = try TemporaryDirectory(prefix: "pulse")
        socket = directory.appending("native")
        try FileManager.default.createDirectory(atPath: directory.appending("home"), withIntermediateDirectories: true)
        process = try ChildProcess.launch(
            "pulseaudio",
            arguments: [
                "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--log-target=stderr",
                "--load=module-null-sink sink_name=null",
                "--load=module-native-protocol-unix socket=\(socket) auth-anonymous=1",
            ],
            environment: [
                "HOME": directory.appending("home"), "XDG_RUNTIME_DIR": directory.path, "PULSE_RUNTIME_PATH": directory.path,
                "XDG_CONFIG_HOME": directory.appending("home"),
            ])
        let socket = socket
        let process = process
        try waitUntil("PulseAudio accepts clients on \(socket)", timeout: timeout) {
            guard process.isRunning else { throw TestSupportError("pulseaudio ended early\n\(process.transcript)") }
            return FileManager.default.fileExists(atPath: socket)
        }
    }

    deinit {
        process.signal(SIGTERM)
        _ = try? process.waitForExit(timeout: .seconds(5))
        directory.remove()
    }
}
