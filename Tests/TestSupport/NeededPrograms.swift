// What the tests, fixtures, scripts and build run, each with the Debian package that provides it:
// scripts/lib/needs.tsv. PackagingTests' DependencyListTests check it against the code and against
// scripts/lib/deps.sh; ChildProcess refuses to start a system program it does not list, so a test
// that starts a new one fails on every machine until the list (and so deps.sh) names it.

import Foundation

public struct NeededPrograms: Sendable {
    public enum Kind: String, Sendable {
        /// A program run from the system's directories (`/usr/bin/xdotool`, or `xdotool` on PATH).
        case program
        /// A Python module the fixtures, examples or tests import (`pyatspi`).
        case python
    }

    public struct Entry: Hashable, Sendable {
        public var kind: Kind
        public var name: String
        public var package: String
    }

    public static let relativePath = "scripts/lib/needs.tsv"

    public let entries: [Entry]

    /// Reads `text` in the list's form: `KIND<TAB>NAME<TAB>PACKAGE` a line; `#` starts a comment.
    public init(text: String) throws {
        var entries: [Entry] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == "\t" || $0 == " " })
            if fields.isEmpty { continue }
            guard fields.count == 3, let kind = Kind(rawValue: String(fields[0])) else {
                throw TestSupportError("\(Self.relativePath):\(number + 1): expected KIND NAME PACKAGE, found '\(line)'")
            }
            entries.append(Entry(kind: kind, name: String(fields[1]), package: String(fields[2])))
        }
        self.entries = entries
    }

    /// The list in the source tree.
    public static func inSourceTree() throws -> NeededPrograms {
        try NeededPrograms(text: SourceTree.read(relativePath))
    }

    /// The programs listed, by file name.
    public var programs: Set<String> { Set(entries.filter { $0.kind == .program }.map(\.name)) }

    /// Whether `path` is a program of the system (`/usr`, `/bin`, `/sbin`, not `/usr/local`): those
    /// come from Debian's packages, and the list must name them.
    public static func isSystemProgram(_ path: String) -> Bool {
        !path.hasPrefix("/usr/local/") && ["/usr/", "/bin/", "/sbin/"].contains { path.hasPrefix($0) }
    }
}
