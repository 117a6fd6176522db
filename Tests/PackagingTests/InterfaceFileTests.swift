// The interface file, data/org.mediabroker.MediaBroker1.xml, is what `make install` and the Debian
// package put in /usr/share/dbus-1/interfaces/ and what examples/c is generated from. It must be
// exactly what the broker prints from the declaration it serves, and a binding generator must read
// its documentation. (Tests/EndToEndTests/ServedInterfaceTests.swift compares it with what a running
// broker answers to Introspect.)

import Foundation
import Testing
import TestSupport

@Suite struct InterfaceFileTests {
    static let file = "data/org.mediabroker.MediaBroker1.xml"

    @Test("the committed interface file is what media-broker --print-interface prints")
    func fileIsThePrintedDeclaration() throws {
        let run = try ChildProcess.run(try BuiltProducts.path(of: "media-broker"), arguments: ["--print-interface"])
        #expect(run.status == .exited(0), "media-broker --print-interface \(run.status): \(run.standardError)")
        #expect(run.standardOutput.hasPrefix("<!DOCTYPE node"))
        let committed = try SourceTree.read(Self.file)
        #expect(committed == run.standardOutput, """
            \(Self.file) is not what the broker serves: run `make interface` (or \
            `media-broker --print-interface > \(Self.file)`) and commit it
            """)
    }

    @Test("gdbus-codegen reads the file's documentation and versions into its DocBook")
    func gdbusCodegenReadsTheDocumentation() throws {
        let output = try TemporaryDirectory(prefix: "codegen")
        let run = try ChildProcess.run(
            "gdbus-codegen",
            arguments: ["--interface-prefix", "org.mediabroker.", "--generate-docbook", "doc", "--output-directory", output.path,
                        SourceTree.path(Self.file)],
            timeout: .seconds(60))
        #expect(run.status == .exited(0), "gdbus-codegen \(run.status): \(run.standardError)")
        let docbook = try String(contentsOfFile: output.appending("doc-org.mediabroker.MediaBroker1.xml"), encoding: .utf8)
        _ = try XMLNode.parse(docbook)
        let file = try XMLNode.parse(try SourceTree.read(Self.file))
        let interface = try #require(file.child("interface", named: "org.mediabroker.MediaBroker1"))
        let recent = try #require(interface.child("method", named: "RecentMedia"))
        let doc = try #require(recent.child("annotation", named: "org.gtk.GDBus.DocString")?["value"])
        #expect(docbook.contains(doc), "gdbus-codegen's DocBook lacks RecentMedia's doc")
        #expect(docbook.contains("<para role=\"since\">Since 2</para>"), "gdbus-codegen's DocBook says no member is since version 2")
        #expect(interface.child("annotation", named: "org.mediabroker.MediaBroker1.BrokerVersion")?["value"]
            == (try brokerVersion()), "the file carries another version than media-broker --version")
    }

    /// The version `media-broker --version` prints.
    func brokerVersion() throws -> String {
        let run = try ChildProcess.run(try BuiltProducts.path(of: "media-broker"), arguments: ["--version"])
        return String(run.standardOutput.split(separator: " ").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
