// debian/ agrees with the rest of the tree: the package's version is the one the programs print
// (Sources/MediaBrokerVersion, the one place it is written), it builds with what scripts/build
// needs, and it depends on what the binaries load, nothing more. Building, installing and purging
// the package is scripts/package-check's (scripts/test runs it in CI).

import Foundation
import Testing
import TestSupport

@Suite struct DebianPackageTests {
    /// The version of debian/changelog's newest entry: `media-broker (0.1.0) unstable; …`.
    static func changelogVersion() throws -> String {
        let first = try SourceTree.read("debian/changelog").prefix { $0 != "\n" }
        guard let open = first.firstIndex(of: "("), let close = first.firstIndex(of: ")"), open < close,
              first.hasPrefix("media-broker ") else {
            throw SourceTreeError("debian/changelog starts with no 'media-broker (VERSION)': \(first)")
        }
        return String(first[first.index(after: open)..<close])
    }

    /// A field of debian/control's stanza that starts with `stanza` (`Source: …`, `Package: …`),
    /// continuation lines joined.
    static func field(_ name: String, of stanza: String) throws -> String {
        let control = try SourceTree.read("debian/control")
        let stanzas = control.components(separatedBy: "\n\n")
        guard let found = stanzas.first(where: { $0.hasPrefix(stanza) }) else {
            throw SourceTreeError("debian/control has no stanza starting \(stanza)")
        }
        var value: String?
        for line in found.split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("\(name):") {
                value = String(line.dropFirst(name.count + 1))
            } else if let current = value, line.first == " " {
                value = current + line
            } else if value != nil {
                break
            }
        }
        guard let value else { throw SourceTreeError("debian/control: \(stanza) has no \(name)") }
        return value.trimmingCharacters(in: .whitespaces)
    }

    @Test("debian/changelog starts at the version the programs print", arguments: ["media-broker", "broker-ctl", "media-broker-picker"])
    func versionIsTheProgramsVersion(_ program: String) throws {
        let run = try ChildProcess.run(try BuiltProducts.path(of: program), arguments: ["--version"])
        let printed = run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").last.map(String.init)
        let packaged = try Self.changelogVersion()
        #expect(packaged == printed, """
            debian/changelog is at \(packaged), \(program) --version prints \(run.standardOutput): \
            add a changelog entry for the version in Sources/MediaBrokerVersion (dch -v VERSION)
            """)
    }

    @Test("the packages depend on what their binaries load and nothing more; the picker on its broker")
    func dependsOnlyOnWhatTheBinariesLoad() throws {
        #expect(try Self.field("Depends", of: "Package: media-broker\n") == "${shlibs:Depends}, ${misc:Depends}")
        #expect(try Self.field("Depends", of: "Package: media-broker-picker")
            == "media-broker (= ${binary:Version}), ${shlibs:Depends}, ${misc:Depends}")
        #expect(try Self.field("Recommends", of: "Package: media-broker\n") == "media-broker-picker")
    }

    @Test("the package builds with debhelper 13 and every package scripts/build needs")
    func buildDependsOnWhatTheBuildNeeds() throws {
        let buildDepends = try Self.field("Build-Depends", of: "Source: media-broker")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(buildDepends.contains("debhelper-compat (= 13)"))
        let deps = try SourceTree.read("scripts/lib/deps.sh")
        let start = try #require(deps.range(of: "MB_BUILD_PACKAGES=("))
        let list = deps[start.upperBound...].prefix { $0 != ")" }
        let needed = list.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            .flatMap { $0.split(separator: " ") }.map(String.init)
        try #require(!needed.isEmpty)
        for package in needed {
            #expect(buildDepends.contains(package), "debian/control's Build-Depends lacks \(package) (MB_BUILD_PACKAGES)")
        }
        #expect(!buildDepends.contains { $0.hasPrefix("swift") }, "Swift is no Debian package: debian/rules finds it")
    }
}
