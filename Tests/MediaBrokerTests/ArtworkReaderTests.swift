import Foundation
import Testing
import TestSupport
@testable import MediaBroker
@testable import BrokerCore

/// What art a player points at is secured, and what is refused without a hang: local files read
/// carefully, `data:` URLs decoded, remote URLs never fetched.
@Suite("Artwork: securing what a player points at")
struct ArtworkReaderTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100)
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 1, count: 50)
    static let webp: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8) + Array(repeating: 2, count: 20)

    @Test("artUrl forms: file (percent-escaped, localhost), data, http(s); others are no art")
    func sources() {
        #expect(ArtworkSource(url: "file:///tmp/My%20Cover.png") == .file(path: "/tmp/My Cover.png"))
        #expect(ArtworkSource(url: "file://localhost/tmp/a.png") == .file(path: "/tmp/a.png"))
        #expect(ArtworkSource(url: "FILE:///tmp/a.png") == .file(path: "/tmp/a.png"))
        #expect(ArtworkSource(url: "https://i.scdn.co/image/ab67") == .remote("https://i.scdn.co/image/ab67"))
        #expect(ArtworkSource(url: "data:image/png;base64,iVBO") == .data(base64: true, payload: "iVBO"))
        for refused in ["file://server/share/a.png", "file:///tmp/%zz.png", "file:///tmp/%00.png", "ftp://x/a.png", "/tmp/a.png", "", "data:nocomma"] {
            #expect(ArtworkSource(url: refused) == nil, "\(refused)")
        }
    }

    @Test("images are told by their first bytes: PNG, JPEG, WebP and nothing else")
    func magic() {
        #expect(ImageKind(magic: Self.png) == .png && ImageKind(magic: Self.jpeg) == .jpeg && ImageKind(magic: Self.webp) == .webp)
        #expect(ImageKind(magic: Array("GIF89a".utf8)) == nil && ImageKind(magic: Array("<svg".utf8)) == nil && ImageKind(magic: []) == nil)
    }

    @Test("a local image is read and named by its content")
    func localFile() throws {
        let folder = try TemporaryDirectory()
        try Data(Self.png).write(to: URL(fileURLWithPath: folder.appending("cover.png")))
        let secured = try #require(ArtworkReader.secure(.file(path: folder.appending("cover.png"))))
        #expect(secured.bytes == Self.png && secured.kind == .png && secured.fileName == SHA256.hex(of: Self.png) + ".png")
    }

    @Test("a data: URL in base64 is decoded and checked like a file")
    func dataURL() throws {
        let encoded = Data(Self.jpeg).base64EncodedString()
        let source = try #require(ArtworkSource(url: "data:image/jpeg;base64," + encoded))
        let secured = try #require(ArtworkReader.secure(source))
        #expect(secured.bytes == Self.jpeg && secured.kind == .jpeg)
        let bad = try #require(ArtworkSource(url: "data:image/png;base64,!!!!"))
        #expect(ArtworkReader.secure(bad) == nil)
        #expect(ArtworkReader.secure(.remote("https://example.com/a.png")) == nil)
    }

    @Test("hostile art: a link out of its folder, a FIFO, /dev/zero, a 1 GB sparse file, a non-image, a folder — refused, none hangs")
    func hostile() throws {
        let outside = try TemporaryDirectory()
        let folder = try TemporaryDirectory()
        try Data(Self.png).write(to: URL(fileURLWithPath: outside.appending("secret.png")))
        try Data(Self.png).write(to: URL(fileURLWithPath: folder.appending("real.png")))
        try FileManager.default.createSymbolicLink(atPath: folder.appending("escape.png"), withDestinationPath: outside.appending("secret.png"))
        try FileManager.default.createSymbolicLink(atPath: folder.appending("inside.png"), withDestinationPath: "real.png")
        #expect(mkfifo(folder.appending("fifo.png"), 0o600) == 0)
        let sparse = folder.appending("sparse.png")
        #expect(FileManager.default.createFile(atPath: sparse, contents: Data(Self.png)))
        #expect(truncate(sparse, 1 << 30) == 0)
        try Data("not an image at all".utf8).write(to: URL(fileURLWithPath: folder.appending("text.png")))
        try FileManager.default.createDirectory(atPath: folder.appending("dir.png"), withIntermediateDirectories: false)
        for name in ["escape.png", "fifo.png", "sparse.png", "text.png", "dir.png", "missing.png"] {
            #expect(ArtworkReader.secure(.file(path: folder.appending(name))) == nil, "\(name)")
        }
        #expect(ArtworkReader.secure(.file(path: "/dev/zero")) == nil)
        #expect(ArtworkReader.secure(.file(path: folder.appending("inside.png")))?.bytes == Self.png)
    }
}

/// Issue 32, item 5: a sandboxed player's `file://` art is read as its process sees its files.
@Suite("Artwork: read through a player's own root")
struct ArtworkInRootTests {
    @Test("a file under the root is read; a symbolic link anywhere on the way, or a '..', reaches nothing")
    func theWalkStaysInTheRoot() throws {
        let root = try TemporaryDirectory(prefix: "player-root"), outside = try TemporaryDirectory(prefix: "person")
        try FileManager.default.createDirectory(atPath: root.appending("tmp/art"), withIntermediateDirectories: true)
        try Data(ArtworkReaderTests.png).write(to: URL(fileURLWithPath: root.appending("tmp/art/cover.png")))
        try Data(ArtworkReaderTests.png + [1]).write(to: URL(fileURLWithPath: outside.appending("photo.png")))
        try FileManager.default.createSymbolicLink(atPath: root.appending("tmp/escape"), withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: root.appending("tmp/art/link.png"), withDestinationPath: "cover.png")

        #expect(ArtworkReader.readFile(at: "/tmp/art/cover.png", inRoot: root.path) == ArtworkReaderTests.png)
        #expect(ArtworkReader.readFile(at: "/tmp/escape/photo.png", inRoot: root.path) == nil, "a folder that is a link")
        #expect(ArtworkReader.readFile(at: "/tmp/art/link.png", inRoot: root.path) == nil, "a file that is a link")
        #expect(ArtworkReader.readFile(at: "/tmp/../tmp/art/cover.png", inRoot: root.path) == nil)
        #expect(ArtworkReader.readFile(at: outside.appending("photo.png"), inRoot: root.path) == nil, "the person's path, outside the root")
    }

    @Test("a file of a player whose process is unknown, or not the connection's, is not read")
    func noProcessNoFile() throws {
        let folder = try TemporaryDirectory(prefix: "art")
        try Data(ArtworkReaderTests.png).write(to: URL(fileURLWithPath: folder.appending("cover.png")))
        let source = ArtworkSource.file(path: folder.appending("cover.png"))
        let me = UInt32(getpid())
        #expect(ArtworkReader.secure(source, from: ConnectedProcess(processID: me, startedBy: BootClock.now()), procRoot: "/proc")?.bytes == ArtworkReaderTests.png,
                "a host player's file is read where the broker reads")
        #expect(ArtworkReader.secure(source, from: nil, procRoot: "/proc") == nil)
        let started = try #require(BootClock.start(ofProcessAt: "/proc/\(me)"))
        #expect(ArtworkReader.secure(source, from: ConnectedProcess(processID: me, startedBy: started - 1), procRoot: "/proc") == nil)
    }
}
