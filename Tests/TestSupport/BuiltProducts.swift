// Finding the executables SwiftPM built beside the running tests.

import Foundation

/// Executables built by SwiftPM in the same build as the running tests.
public enum BuiltProducts {
    /// The path of the executable `name` (e.g. `media-broker`, `broker-ctl`) in the directory of
    /// the running test binary (`/proc/self/exe`) or one of its parents, up to the
    /// `.build/<triple>/<configuration>` directory. Throws, saying where it looked, when absent.
    public static func path(of name: String) throws -> String {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        var searched: [String] = []
        while true {
            let candidate = directory.appendingPathComponent(name).path
            searched.append(directory.path)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            // Stop at the configuration directory (.build/<triple>/<config>) or on leaving .build.
            let parent = directory.deletingLastPathComponent()
            let atConfiguration = parent.deletingLastPathComponent().lastPathComponent == ".build"
            if atConfiguration || !directory.path.contains("/.build/") || parent.path == directory.path { break }
            directory = parent
        }
        throw TestSupportError(
            "\(name) was not built; looked in \(searched.joined(separator: ", ")). Build it first: "
                + "swift build --product \(name) (scripts/test builds everything)")
    }
}
