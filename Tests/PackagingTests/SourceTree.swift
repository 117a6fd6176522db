// Files of the source tree the packaging tests check, found from this file's path (tests always
// run from the source tree, as TestSupport's PrivateBus also assumes).

import Foundation

enum SourceTree {
    /// The package root: three levels above this file (Tests/PackagingTests/SourceTree.swift).
    static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func path(_ relative: String) -> String { root + "/" + relative }

    /// The text of `relative`, or a thrown error naming the file.
    static func read(_ relative: String) throws -> String {
        do {
            return try String(contentsOfFile: path(relative), encoding: .utf8)
        } catch {
            throw SourceTreeError("cannot read \(relative) (\(path(relative))): \(error)")
        }
    }
}

struct SourceTreeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
