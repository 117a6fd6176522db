// `make install` and `make uninstall` into a DESTDIR: the exact tree, the rewritten Exec= lines,
// and nothing left behind but what was there before. Installs the debug binaries this test run
// already has (BUILD_DIR), so nothing is rebuilt.

import Foundation
import Testing
import TestSupport

@Suite struct InstallTests {
    /// Runs `make TARGET DESTDIR=… PREFIX=… BUILD_DIR=<this build>` in the source tree.
    static func make(_ target: String, destination: String, prefix: String) throws {
        let buildDirectory = URL(fileURLWithPath: try BuiltProducts.path(of: "media-broker")).deletingLastPathComponent().path
        let run = try ChildProcess.run(
            "make",
            arguments: ["--no-print-directory", target, "DESTDIR=\(destination)", "PREFIX=\(prefix)", "BUILD_DIR=\(buildDirectory)"],
            workingDirectory: SourceTree.root, timeout: .seconds(60))
        #expect(run.status == .exited(0), "make \(target) \(run.status)\n\(run.standardOutput)\(run.standardError)")
    }

    /// Every file and directory under `root`, relative, with its permission bits.
    static func tree(_ root: String) throws -> [String: Int] {
        var tree: [String: Int] = [:]
        let manager = FileManager.default
        for relative in try manager.subpathsOfDirectory(atPath: root) {
            let attributes = try manager.attributesOfItem(atPath: root + "/" + relative)
            let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            let isDirectory = (attributes[.type] as? FileAttributeType) == .typeDirectory
            tree[relative + (isDirectory ? "/" : "")] = permissions
        }
        return tree
    }

    static func expectedFiles(zshDirectory: String, prefix: String) -> [String: Int] {
        let files: [String: Int] = [
            "bin/media-broker": 0o755,
            "bin/broker-ctl": 0o755,
            "share/dbus-1/services/org.mediabroker.MediaBroker1.service": 0o644,
            "share/dbus-1/interfaces/org.mediabroker.MediaBroker1.xml": 0o644,
            "lib/systemd/user/media-broker.service": 0o644,
            "share/man/man1/broker-ctl.1": 0o644,
            "share/man/man8/media-broker.8": 0o644,
            "share/bash-completion/completions/broker-ctl": 0o644,
            "\(zshDirectory)/_broker-ctl": 0o644,
            "bin/media-broker-picker": 0o755,
            "share/man/man1/media-broker-picker.1": 0o644,
            "share/applications/org.mediabroker.ListeningHistory.desktop": 0o644,
            "share/icons/hicolor/scalable/apps/org.mediabroker.ListeningHistory.svg": 0o644,
            "share/locale/de/LC_MESSAGES/media-broker.mo": 0o644,
            "share/locale/fr/LC_MESSAGES/media-broker.mo": 0o644,
        ]
        return Dictionary(uniqueKeysWithValues: files.map { (String(prefix.dropFirst()) + "/" + $0.key, $0.value) })
    }

    @Test func installsTheExactTreeWithExecPointingAtTheInstalledBinaryAndUninstallEmptiesIt() throws {
        let destination = try TemporaryDirectory(prefix: "destdir")
        try Self.make("install", destination: destination.path, prefix: "/usr")

        let installed = try Self.tree(destination.path)
        let files = installed.filter { !$0.key.hasSuffix("/") }
        #expect(files == Self.expectedFiles(zshDirectory: "share/zsh/vendor-completions", prefix: "/usr"))

        let service = try String(contentsOfFile: destination.appending("usr/share/dbus-1/services/org.mediabroker.MediaBroker1.service"), encoding: .utf8)
        #expect(service.split(separator: "\n").filter { $0.hasPrefix("Exec=") } == ["Exec=/usr/bin/media-broker"])
        let unit = try String(contentsOfFile: destination.appending("usr/lib/systemd/user/media-broker.service"), encoding: .utf8)
        #expect(unit.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") } == ["ExecStart=/usr/bin/media-broker"])
        #expect(!service.contains("@") && !unit.contains("@bindir@"), "a template placeholder was left in")

        for name in ["media-broker", "broker-ctl"] {
            let built = FileManager.default.contents(atPath: try BuiltProducts.path(of: name))
            #expect(FileManager.default.contents(atPath: destination.appending("usr/bin/\(name)")) == built, "usr/bin/\(name) is not the built binary")
        }
        for copied in ["usr/share/man/man1/broker-ctl.1": "man/broker-ctl.1", "usr/share/man/man8/media-broker.8": "man/media-broker.8",
                     "usr/share/dbus-1/interfaces/org.mediabroker.MediaBroker1.xml": "data/org.mediabroker.MediaBroker1.xml"] {
            #expect(FileManager.default.contents(atPath: destination.appending(copied.key)) == FileManager.default.contents(atPath: SourceTree.path(copied.value)))
        }

        // The menus show the settings window in the person's language (issue 36).
        let entry = try String(contentsOfFile: destination.appending("usr/share/applications/org.mediabroker.ListeningHistory.desktop"), encoding: .utf8)
        let names = entry.split(separator: "\n").filter { $0.hasPrefix("Name") }
        #expect(names == ["Name[de]=Hörverlauf", "Name[fr]=Historique d’écoute", "Name=Listening History"], "\(names)")
        for key in ["GenericName", "Comment", "Keywords"] {
            #expect(entry.contains("\(key)[de]=") && entry.contains("\(key)[fr]=") && entry.contains("\n\(key)="), "\(key) in de and fr")
        }

        try Self.make("uninstall", destination: destination.path, prefix: "/usr")
        let left = try Self.tree(destination.path)
        #expect(left.isEmpty, "make uninstall left: \(left.keys.sorted())")
    }

    @Test func aLocalInstallPutsZshCompletionWhereZshLooksForIt() throws {
        let destination = try TemporaryDirectory(prefix: "destdir")
        try Self.make("install", destination: destination.path, prefix: "/usr/local")
        let files = try Self.tree(destination.path).filter { !$0.key.hasSuffix("/") }
        #expect(files == Self.expectedFiles(zshDirectory: "share/zsh/site-functions", prefix: "/usr/local"))
        try Self.make("uninstall", destination: destination.path, prefix: "/usr/local")
        #expect(try Self.tree(destination.path).isEmpty)
    }

    @Test func uninstallKeepsFilesAndDirectoriesItDidNotInstall() throws {
        let destination = try TemporaryDirectory(prefix: "destdir")
        let other = destination.appending("usr/share/man/man1/other.1")
        try FileManager.default.createDirectory(atPath: destination.appending("usr/share/man/man1"), withIntermediateDirectories: true)
        try "other".write(toFile: other, atomically: true, encoding: .utf8)

        try Self.make("install", destination: destination.path, prefix: "/usr")
        try Self.make("uninstall", destination: destination.path, prefix: "/usr")
        #expect(try Self.tree(destination.path).keys.sorted() == ["usr/", "usr/share/", "usr/share/man/", "usr/share/man/man1/", "usr/share/man/man1/other.1"])
    }

    @Test func installRefusesABuildDirectoryWithoutTheBinaries() throws {
        let destination = try TemporaryDirectory(prefix: "destdir")
        let empty = try TemporaryDirectory(prefix: "empty-build")
        let run = try ChildProcess.run(
            "make", arguments: ["--no-print-directory", "install", "DESTDIR=\(destination.path)", "BUILD_DIR=\(empty.path)"],
            workingDirectory: SourceTree.root, timeout: .seconds(60))
        #expect(run.status != .exited(0))
        #expect(run.standardError.contains("does not exist; build it first"), "\(run.standardError)")
        #expect(try Self.tree(destination.path).isEmpty)
    }
}
