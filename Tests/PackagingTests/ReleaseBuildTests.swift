// The executables scripts/build makes (what `make` installs and bench/run measures) carry their own
// Swift runtime, libstdc++ and libgcc: only C libraries are loaded at start. scripts/test runs
// scripts/build before the tests, so CI also proves the static link still works.

import Foundation
import Testing
import TestSupport

@Suite struct ReleaseBuildTests {
    static let releaseDirectory = SourceTree.path(".build/release")
    static var built: Bool {
        ["media-broker", "broker-ctl", "media-broker-picker"].allSatisfy { FileManager.default.isExecutableFile(atPath: releaseDirectory + "/" + $0) }
    }

    /// Shared libraries the dynamic loader maps for `program`, by file name (`ldd`).
    static func sharedLibraries(of program: String) throws -> [String] {
        let run = try ChildProcess.run("/usr/bin/ldd", arguments: [program])
        #expect(run.status == .exited(0), "ldd \(program): \(run.standardError)")
        // "\tlibdbus-1.so.3 => /lib/x86_64-linux-gnu/libdbus-1.so.3 (0x…)", "\t/lib64/ld-linux-x86-64.so.2 (0x…)"
        return run.standardOutput.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map { String($0.split(separator: "/").last ?? $0) }
        }
    }

    @Test("the executables load no Swift runtime, libstdc++ or libgcc_s of their own at start",
          .enabled(if: built, "needs the release build: scripts/build (scripts/test runs it)"),
          arguments: ["media-broker", "broker-ctl", "media-broker-picker"])
    func noSharedSwiftRuntime(program: String) throws {
        let path = Self.releaseDirectory + "/" + program
        let libraries = try Self.sharedLibraries(of: path)
        #expect(libraries.contains { $0.hasPrefix("libdbus-1.so") }, "ldd output not understood: \(libraries)")
        // GTK's own libraries (HarfBuzz, Graphene) load libstdc++ and libgcc_s for the picker.
        let runtime = ["libswift", "libFoundation", "libdispatch", "libBlocksRuntime"]
            + (program == "media-broker-picker" ? [] : ["libstdc++", "libgcc_s"])
        let unwanted = libraries.filter { name in runtime.contains { name.hasPrefix($0) } }
        #expect(unwanted.isEmpty, "\(program) still loads \(unwanted)")
        let version = try ChildProcess.run(path, arguments: ["--version"])
        #expect(version.status == .exited(0), "\(program) --version: \(version.standardError)")
        #expect(!version.standardOutput.isEmpty)
    }
}
