// A fresh directory for one test, removed when the test is done with it.

public import Foundation
import Synchronization

/// A new, empty directory under `$TMPDIR` (or `NSTemporaryDirectory()`), removed with everything
/// in it on `remove()` or when the last reference goes away.
public final class TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String
    private let removed = Mutex(false)

    /// Creates the directory; its name starts with `prefix`.
    public init(prefix: String = "TestSupport") throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSTemporaryDirectory()
        var template = Array(((base.hasSuffix("/") ? base : base + "/") + prefix + ".XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard created != nil else {
            throw TestSupportError("cannot create a temporary directory under \(base): \(String(cString: strerror(errno)))")
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The directory as a file URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of `name` inside this directory (nothing is created).
    public func appending(_ name: String) -> String { path + "/" + name }

    /// Removes the directory and its contents; later calls do nothing.
    public func remove() {
        let first = removed.withLock { removed in
            defer { removed = true }
            return !removed
        }
        if first { try? FileManager.default.removeItem(atPath: path) }
    }

    deinit { remove() }
}
