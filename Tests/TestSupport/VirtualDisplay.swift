// An X display with no screen, for programs that need a window (Firefox).

import Foundation

/// Xvfb on a display number it picks itself (`-displayfd`: the first free one, printed on its
/// standard output once it accepts clients). There is no window manager: a program's window is
/// mapped but never focused unless the test focuses it.
public final class VirtualDisplay: DisplayServer {
    public let process: ChildProcess
    /// `:N`, for `DISPLAY`.
    public let name: String

    public var environment: [String: String] { ["DISPLAY": name] }

    /// A screen of `width`×`height` pixels: a window scaled 2× (`GDK_SCALE=2`) needs a large one.
    public init(width: Int = 1280, height: Int = 800, timeout: Duration = .seconds(15)) throws {
        let process = try ChildProcess.launch(
            "Xvfb", arguments: ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"])
        var number: Int?
        try waitUntil("Xvfb tells its display number", timeout: timeout) {
            guard process.isRunning else { throw TestSupportError("Xvfb ended\n\(process.transcript)") }
            let printed = process.standardOutput
            guard printed.hasSuffix("\n") else { return false }
            number = Int(printed.trimmingCharacters(in: .whitespacesAndNewlines))
            return number != nil
        }
        self.process = process
        name = ":\(number!)"
    }

    deinit {
        process.signal(SIGTERM)
        _ = try? process.waitForExit(timeout: .seconds(5))
    }
}
