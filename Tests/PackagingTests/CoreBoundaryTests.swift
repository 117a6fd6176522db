// BrokerCore is the broker's policy: no bus, no SQLite, no file or socket. Package.swift gives it
// no dependency on SwiftDBus or CSQLite, so the compiler refuses those; but any target may import
// the C library or Foundation unasked. This check keeps the core's imports to its two
// dependencies, so a `/proc` read or a socket cannot creep in.

import Foundation
import Testing
import TestSupport

@Suite("BrokerCore: the policy imports nothing that reaches the bus, the disk or a socket")
struct CoreBoundaryTests {
    static let allowed: Set<String> = ["Clocks", "AssetContract"]

    /// The modules `text` imports that the core may not.
    static func foreignImports(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ").map(String.init)
            guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                  words[..<index].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal"].contains($0) })
            else { return nil }
            let module = words[index + 1].split(separator: ".").first.map(String.init) ?? ""
            return allowed.contains(module) ? nil : module
        }
    }

    @Test("the check finds an import of the C library, Foundation or SwiftDBus, and lets the two dependencies through")
    func theCheckFindsForeignImports() {
        #expect(Self.foreignImports(in: "import Glibc\n@preconcurrency import Foundation\npackage import SwiftDBus.BusName\n")
            == ["Glibc", "Foundation", "SwiftDBus"])
        #expect(Self.foreignImports(in: "import Clocks\npackage import AssetContract\n/// import Glibc, in a comment\n").isEmpty)
    }

    @Test("every file of Sources/BrokerCore imports only Clocks and AssetContract")
    func coreFilesImportOnlyTheirDependencies() throws {
        let root = SourceTree.path("Sources/BrokerCore")
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50, "the core's files were not found under \(root)")
        for file in files {
            let foreign = Self.foreignImports(in: try SourceTree.read("Sources/BrokerCore/" + file))
            #expect(foreign.isEmpty, "\(file) imports \(foreign)")
        }
    }

    @Test("Package.swift gives BrokerCore no dependency but Clocks and AssetContract")
    func thePackageGivesTheCoreOnlyItsDependencies() throws {
        let manifest = try SourceTree.read("Package.swift")
        let declaration = try #require(manifest.split(separator: "\n").first { $0.contains(#".target(name: "BrokerCore""#) })
        #expect(declaration.contains(#"dependencies: ["Clocks", "AssetContract"]"#), "\(declaration)")
    }
}
