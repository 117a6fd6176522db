import SwiftDBus
import Testing
@testable import MediaBroker

/// The served interface is documented whole: every method, property, signal and argument carries
/// an `org.gtk.GDBus.DocString` from ``BrokerInterfaceDocs``, the table documents nothing the
/// declaration lacks, and the interface says which versions it is.
@Suite("The interface's documentation")
struct BrokerInterfaceDocsTests {
    static let declared = BrokerObject.declaration

    static func value(_ name: String, in annotations: [Annotation]) -> String? {
        annotations.first { $0.name == name }?.value
    }

    static func doc(_ annotations: [Annotation]) -> String? {
        value(BrokerInterfaceDocs.docString, in: annotations)
    }

    @Test("every method and each of its arguments has a doc", arguments: declared.methods.map(\.name.rawValue))
    func methods(_ name: String) throws {
        let method = try #require(Self.declared.methods.first { $0.name.rawValue == name })
        #expect(Self.doc(method.annotations)?.isEmpty == false,
                "\(name) has no doc: add it to BrokerInterfaceDocs.methods")
        for argument in method.inputs + method.outputs {
            #expect(Self.doc(argument.annotations)?.isEmpty == false,
                    "\(name)'s argument \(argument.name) has no doc: add it to BrokerInterfaceDocs.methods[\"\(name)\"]")
        }
    }

    @Test("every property has a doc", arguments: declared.properties.map(\.name.rawValue))
    func properties(_ name: String) throws {
        let property = try #require(Self.declared.properties.first { $0.name.rawValue == name })
        #expect(Self.doc(property.annotations)?.isEmpty == false, "\(name) has no doc: add it to BrokerInterfaceDocs.properties")
    }

    @Test("every signal and each of its arguments has a doc", arguments: declared.signals.map(\.name.rawValue))
    func signals(_ name: String) throws {
        let signal = try #require(Self.declared.signals.first { $0.name.rawValue == name })
        #expect(Self.doc(signal.annotations)?.isEmpty == false, "\(name) has no doc: add it to BrokerInterfaceDocs.signals")
        for argument in signal.arguments {
            #expect(Self.doc(argument.annotations)?.isEmpty == false,
                    "\(name)'s argument \(argument.name) has no doc: add it to BrokerInterfaceDocs.signals[\"\(name)\"]")
        }
    }

    @Test("the table documents no member or argument the interface lacks")
    func nothingStale() {
        func check(_ table: [String: BrokerInterfaceDocs.Doc], _ members: [String: [String]], _ kind: String) {
            for (name, doc) in table {
                guard let arguments = members[name] else {
                    Issue.record("BrokerInterfaceDocs documents the \(kind) \(name), which the interface does not declare")
                    continue
                }
                let stale = Set(doc.arguments.keys).subtracting(arguments)
                #expect(stale.isEmpty, "BrokerInterfaceDocs documents arguments \(stale.sorted()) that \(name) lacks")
            }
        }
        let methods = Dictionary(uniqueKeysWithValues: Self.declared.methods.map { ($0.name.rawValue, ($0.inputs + $0.outputs).map(\.name)) })
        let signals = Dictionary(uniqueKeysWithValues: Self.declared.signals.map { ($0.name.rawValue, $0.arguments.map(\.name)) })
        let properties = Dictionary(uniqueKeysWithValues: Self.declared.properties.map { ($0.name.rawValue, [String]()) })
        check(BrokerInterfaceDocs.methods, methods, "method")
        check(BrokerInterfaceDocs.signals, signals, "signal")
        check(BrokerInterfaceDocs.properties, properties, "property")
    }

    @Test("a member added after version 1 says since when, never later than the interface's version")
    func since() {
        let all = Array(BrokerInterfaceDocs.methods) + Array(BrokerInterfaceDocs.properties) + Array(BrokerInterfaceDocs.signals)
        for (name, doc) in all {
            guard let since = doc.since else { continue }
            #expect((2...BrokerContract.version).contains(since), "\(name) is since version \(since)")
        }
        let moments = Self.declared.methods.first { $0.name == "Moments" }?.annotations ?? []
        #expect(Self.value(BrokerInterfaceDocs.since, in: moments) == "2")
        let subscribe = Self.declared.methods.first { $0.name == "Subscribe" }?.annotations ?? []
        #expect(Self.value(BrokerInterfaceDocs.since, in: subscribe) == "3")
        let recent = Self.declared.methods.first { $0.name == "RecentMedia" }?.annotations ?? []
        #expect(Self.value(BrokerInterfaceDocs.since, in: recent) == nil, "version 1 members carry no Since")
    }

    @Test("the interface carries its summary, its version and the broker's")
    func versions() {
        let annotations = Self.declared.annotations
        #expect(Self.value(BrokerInterfaceDocs.interfaceVersion, in: annotations) == String(BrokerContract.version))
        let release = Self.value(BrokerInterfaceDocs.brokerVersion, in: annotations)
        #expect(release.map { "media-broker \($0)" } == BrokerOptions.versionLine)
        #expect(Self.value(BrokerInterfaceDocs.shortDocString, in: annotations)?.isEmpty == false)
        #expect(Self.doc(annotations)?.contains("artwork_url (s)") == true, "the interface describes every asset key")
    }

    @Test("docs are plain DocBook text: no markup characters, no line breaks")
    func plainText() {
        var texts = [BrokerInterfaceDocs.interfaceText, BrokerInterfaceDocs.summary]
        for table in [BrokerInterfaceDocs.methods, BrokerInterfaceDocs.properties, BrokerInterfaceDocs.signals] {
            for doc in table.values { texts += [doc.text] + Array(doc.arguments.values) }
        }
        for text in texts {
            // gdbus-codegen pastes a doc into DocBook as it is: `<` and `&` would be markup there.
            #expect(!text.contains { "<&\n".contains($0) }, "\(text)")
        }
    }
}
