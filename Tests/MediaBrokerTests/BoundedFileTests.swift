import BoundedFile
import Foundation
import Testing
import TestSupport

/// Issue 32, item 2: a path that came from an app or a player is read without waiting on it and
/// within a bound; anything but a regular file reads as absent.
@Suite struct BoundedFileTests {
    @Test("a regular file within the bound is read whole")
    func regularFile() throws {
        let folder = try TemporaryDirectory(prefix: "bounded")
        try Data("icon bytes".utf8).write(to: URL(fileURLWithPath: folder.appending("icon.png")))
        #expect(BoundedFile.read(folder.appending("icon.png"), limit: 64) == Array("icon bytes".utf8))
        #expect(BoundedFile.read(folder.appending("icon.png"), limit: 4) == nil, "larger than the bound")
        #expect(BoundedFile.read(folder.appending("missing.png"), limit: 64) == nil)
    }

    @Test("a FIFO no one writes to reads as absent at once, as do a directory and a device")
    func notRegularFiles() throws {
        let folder = try TemporaryDirectory(prefix: "bounded")
        #expect(mkfifo(folder.appending("planted.png"), 0o600) == 0)
        #expect(BoundedFile.read(folder.appending("planted.png"), limit: 1 << 20) == nil)
        #expect(BoundedFile.read(folder.path, limit: 1 << 20) == nil)
        #expect(BoundedFile.read("/dev/zero", limit: 1 << 20) == nil)
    }
}
