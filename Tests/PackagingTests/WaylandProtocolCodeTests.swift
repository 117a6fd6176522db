// Sources/CWaylandForeign compiles xdg-foreign v2 client code that wayland-scanner wrote and that
// is committed, so a build needs neither the scanner nor the protocol. It must stay exactly what
// `make wayland-foreign` writes from the protocol Debian installs: a hand edit, or a protocol
// Debian has moved on from, would go unnoticed otherwise.

import Foundation
import Testing
import TestSupport

@Suite struct WaylandProtocolCodeTests {
    static let protocolFile = "/usr/share/wayland-protocols/unstable/xdg-foreign/xdg-foreign-unstable-v2.xml"

    @Test("the committed xdg-foreign v2 header and code are what wayland-scanner writes from the installed protocol",
          arguments: [("client-header", "Sources/CWaylandForeign/xdg-foreign-unstable-v2-client-protocol.h"),
                      ("private-code", "Sources/CWaylandForeign/xdg-foreign-unstable-v2-protocol.c")])
    func committedCodeIsGenerated(kind: String, file: String) throws {
        let output = try TemporaryDirectory(prefix: "wayland-scanner")
        let written = output.appending("generated")
        let run = try ChildProcess.run("wayland-scanner", arguments: [kind, Self.protocolFile, written])
        #expect(run.status == .exited(0), "wayland-scanner \(kind) \(run.status): \(run.standardError)")
        let generated = try String(contentsOfFile: written, encoding: .utf8)
        #expect(generated.contains("zxdg_importer_v2"), "wayland-scanner wrote no importer: \(generated.prefix(200))")
        #expect(try SourceTree.read(file) == generated, "\(file) is not what wayland-scanner \(kind) writes: run `make wayland-foreign` and commit it")
    }
}
