// Files of the source tree tests check or run (docs, packaging, the examples), found from this
// file's path: tests always run from the source tree, as PrivateBus also assumes.

import Foundation

public enum SourceTree {
    /// The package root: three levels above this file (Tests/TestSupport/SourceTree.swift).
    public static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// The text of `relative`, or a thrown error naming the file.
    public static func read(_ relative: String) throws -> String {
        do {
            return try String(contentsOfFile: path(relative), encoding: .utf8)
        } catch {
            throw SourceTreeError("cannot read \(relative) (\(path(relative))): \(error)")
        }
    }
}

public struct SourceTreeError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
