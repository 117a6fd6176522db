// Pictures of a window on a virtual display, for the README and for checking a window drew.

import Foundation

/// One window's picture: saved as PNG, its pixels kept to compare.
public struct Screenshot: Sendable {
    public let path: String
    public let width: Int
    public let height: Int
    /// RGB, row by row.
    public let pixels: [UInt8]

    /// Takes the window titled exactly `title` on `display` (`xdotool` finds it, `ffmpeg` grabs it)
    /// and saves it to `path`.
    public static func take(windowTitled title: String, on display: VirtualDisplay, to path: String) throws -> Screenshot {
        let environment = display.environment
        let found = try ChildProcess.run("xdotool", arguments: ["search", "--name", "^" + NSRegularExpression.escapedPattern(for: title) + "$"],
                                         environment: environment)
        guard let window = found.standardOutput.split(separator: "\n").first else {
            throw TestSupportError("no window titled \(title) on \(display.name)")
        }
        let geometry = try ChildProcess.run("xdotool", arguments: ["getwindowgeometry", "--shell", String(window)], environment: environment)
        var values: [String: Int] = [:]
        for line in geometry.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let number = Int(parts[1]) { values[String(parts[0])] = number }
        }
        guard let x = values["X"], let y = values["Y"], let width = values["WIDTH"], let height = values["HEIGHT"] else {
            throw TestSupportError("no geometry for \(title): \(geometry.standardOutput)")
        }
        let grab = try ChildProcess.run("ffmpeg", arguments: [
            "-loglevel", "error", "-y", "-f", "x11grab", "-video_size", "\(width)x\(height)", "-i", "\(display.name)+\(x),\(y)",
            "-frames:v", "1", path,
        ], environment: environment)
        guard grab.status == .exited(0) else { throw TestSupportError("ffmpeg could not grab \(title): \(grab.standardError)") }
        return try read(path, width: width, height: height)
    }

    /// Reads back the picture of `width`×`height` saved at `path`.
    public static func read(_ path: String, width: Int, height: Int) throws -> Screenshot {
        let raw = path + ".rgb"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let decode = try ChildProcess.run("ffmpeg", arguments: ["-loglevel", "error", "-y", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        guard decode.status == .exited(0), let data = FileManager.default.contents(atPath: raw), data.count == width * height * 3 else {
            throw TestSupportError("ffmpeg could not read \(path) back: \(decode.standardError)")
        }
        return Screenshot(path: path, width: width, height: height, pixels: [UInt8](data))
    }

    /// How many different colours it has: a window that drew nothing has one or two.
    public var colourCount: Int {
        var colours = Set<UInt32>()
        var index = 0
        while index + 2 < pixels.count {
            colours.insert(UInt32(pixels[index]) << 16 | UInt32(pixels[index + 1]) << 8 | UInt32(pixels[index + 2]))
            index += 3
        }
        return colours.count
    }

    /// How light it is on the whole, from 0 (black) to 1 (white): the mean of its pixels' relative
    /// luminance (Rec. 709's weights, on the sRGB values as they are; enough to tell a dark window
    /// from a light one).
    public var meanLuminance: Double {
        var total = 0.0
        var index = 0
        while index + 2 < pixels.count {
            total += 0.2126 * Double(pixels[index]) + 0.7152 * Double(pixels[index + 1]) + 0.0722 * Double(pixels[index + 2])
            index += 3
        }
        return pixels.isEmpty ? 0 : total / 255 / Double(pixels.count / 3)
    }

    /// Whether it shows something else than `other`: another size, or more than 1% of its pixels
    /// changed.
    public func differs(from other: Screenshot) -> Bool {
        guard width == other.width, height == other.height else { return true }
        var changed = 0
        for pixel in 0..<(width * height) where pixels[pixel * 3..<pixel * 3 + 3] != other.pixels[pixel * 3..<pixel * 3 + 3] {
            changed += 1
        }
        return changed * 100 > width * height
    }

    /// Where a test run keeps its screenshots: `MB_SCREENSHOT_DIR`, else `.build/screenshots` in
    /// the source tree (the ones in `docs/screenshots` are copies of a run's).
    public static func folder() throws -> String {
        let folder = ProcessInfo.processInfo.environment["MB_SCREENSHOT_DIR"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/screenshots").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}
