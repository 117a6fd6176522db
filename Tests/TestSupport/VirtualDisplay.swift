// An X display with no screen, for programs that need a window (Firefox).

import Foundation

/// Xvfb on a display number of its own. There is no window manager: a program's window is mapped
/// but never focused unless the test focuses it.
public final class VirtualDisplay: Sendable {
    public let process: ChildProcess
    /// `:N`, for `DISPLAY`.
    public let name: String

    public var environment: [String: String] { ["DISPLAY": name] }

    /// Tries display numbers from one derived from this process's id until Xvfb holds one (another
    /// test run may hold the first); waits for its socket.
    public init(timeout: Duration = .seconds(15)) throws {
        var lastError: Error?
        for attempt in 0..<20 {
            let number = 100 + (Int(getpid()) + attempt * 37) % 800
            let socket = "/tmp/.X11-unix/X\(number)"
            guard !FileManager.default.fileExists(atPath: socket) else { continue }
            let process = try ChildProcess.launch(
                "Xvfb", arguments: [":\(number)", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"])
            do {
                try waitUntil("Xvfb serves :\(number)", timeout: timeout) {
                    guard process.isRunning else { throw TestSupportError("Xvfb :\(number) ended\n\(process.transcript)") }
                    return FileManager.default.fileExists(atPath: socket)
                }
                self.process = process
                self.name = ":\(number)"
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? TestSupportError("no free X display number for Xvfb")
    }

    deinit {
        process.signal(SIGTERM)
        _ = try? process.waitForExit(timeout: .seconds(5))
    }
}
