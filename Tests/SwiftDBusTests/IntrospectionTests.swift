import SwiftDBus
import TestSupport
import Testing

/// `Introspect` answers XML generated from the declaration: every method with its argument
/// directions and types, properties with their access, signals, the standard interfaces, and a
/// `<node>` for each child so a tool can walk down from `/`.
@Suite struct IntrospectionTests {
    static let deepPath: ObjectPath = "/org/mediabroker/Test/Other/Deep"

    static func serve(_ pair: BusPair, _ object: TestObject) {
        pair.service.export(object.object)
        pair.service.export(ExportedObject(path: deepPath, interfaces: []))
    }

    func introspect(_ pair: BusPair, _ path: ObjectPath) async throws -> XMLNode {
        let reply = try await pair.client.call(pair.call(path, .introspectable, "Introspect"))
        #expect(reply.signature == "s")
        let xml = try reply.arguments[0].string()
        #expect(xml.hasPrefix("<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\""))
        return try XMLNode.parse(xml)
    }

    @Test func theXMLListsMethodsWithArgumentDirectionsAndTypes() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        Self.serve(pair, TestObject())
        let root = try await introspect(pair, TestObject.path)
        #expect(root.name == "node")
        let player = try #require(root.child("interface", named: TestObject.interface.rawValue))
        let describe = try #require(player.child("method", named: "Describe"))
        #expect(describe.children(named: "arg").map { [$0["name"], $0["type"], $0["direction"]] } == [
            ["name", "s", "in"], ["tags", "as", "in"], ["text", "s", "out"], ["count", "u", "out"],
        ])
        // Annotations of a method and of an argument, escaped and read back whole.
        #expect(describe.children(named: "annotation").map { [$0["name"], $0["value"]] } == [["org.freedesktop.DBus.Deprecated", "true"]])
        let tags = try #require(describe.children(named: "arg").first { $0["name"] == "tags" })
        #expect(tags.children(named: "annotation").map { [$0["name"], $0["value"]] } == [[TestObject.tagsNote.name, TestObject.tagsNote.value]])
        #expect(player.children(named: "method").map { $0["name"] ?? "" } == [
            "Add", "Describe", "Echo", "Hold", "Forget", "ReplyWrongly", "ReplyWithNUL", "ReplyTooDeep", "Fail", "FailWithNUL", "Note",
        ])
        #expect(player.child("method", named: "Fail")?.children.isEmpty == true)
        #expect(root.child("interface", named: TestObject.otherInterface.rawValue)?.child("method", named: "Hello") != nil)
    }

    @Test func theXMLListsPropertiesWithAccessAndChangeAnnotations() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        Self.serve(pair, TestObject())
        let player = try #require(try await introspect(pair, TestObject.path).child("interface", named: TestObject.interface.rawValue))
        let properties = player.children(named: "property")
        #expect(properties.map { [$0["name"], $0["type"], $0["access"]] } == [
            ["Title", "s", "read"], ["Volume", "i", "readwrite"], ["Position", "x", "read"], ["Secret", "s", "read"],
        ])
        func annotation(_ property: String) -> String? {
            player.child("property", named: property)?.child("annotation", named: "org.freedesktop.DBus.Property.EmitsChangedSignal")?["value"]
        }
        #expect(annotation("Title") == nil, "true is the default and need not be written")
        #expect(annotation("Position") == "invalidates")
        #expect(annotation("Secret") == "false")
    }

    @Test func theXMLListsSignalsWithTheirArguments() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        Self.serve(pair, TestObject())
        let player = try #require(try await introspect(pair, TestObject.path).child("interface", named: TestObject.interface.rawValue))
        let changed = try #require(player.child("signal", named: "Changed"))
        #expect(changed.children.map { [$0["name"], $0["type"], $0["direction"]] } == [["what", "s", nil], ["count", "u", nil]])
    }

    @Test func everyObjectListsTheThreeStandardInterfaces() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        Self.serve(pair, TestObject())
        for path in [TestObject.path, Self.deepPath] {
            let root = try await introspect(pair, path)
            let names = Set(root.children(named: "interface").compactMap { $0["name"] })
            #expect(names.isSuperset(of: ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Peer"]))
            let properties = try #require(root.child("interface", named: "org.freedesktop.DBus.Properties"))
            #expect(properties.child("method", named: "GetAll")?.children.map { $0["type"] } == ["s", "a{sv}"])
            #expect(properties.child("signal", named: "PropertiesChanged")?.children.map { $0["type"] } == ["s", "a{sv}", "as"])
        }
    }

    @Test func theRootAndIntermediatePathsListTheirChildren() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        Self.serve(pair, TestObject())
        func children(_ path: ObjectPath) async throws -> [String] {
            try await introspect(pair, path).children(named: "node").compactMap { $0["name"] }
        }
        #expect(try await children("/") == ["org"])
        #expect(try await children("/org/mediabroker") == ["Test"])
        #expect(try await children("/org/mediabroker/Test") == ["Other", "Player"])
        #expect(try await children(TestObject.path) == [])
        let intermediate = try await introspect(pair, "/org/mediabroker/Test")
        #expect(intermediate.children(named: "interface").isEmpty, "no object lives at an intermediate path")
    }

    @Test("an object shown to one peer is listed to that peer alone, and is not there for anyone else")
    func anObjectOfOnePeerIsShownToItAlone() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        Self.serve(pair, TestObject())
        let mine: ObjectPath = "/org/mediabroker/Test/Requests/Mine", theirs: ObjectPath = "/org/mediabroker/Test/Others/Theirs"
        pair.service.export(ExportedObject(path: mine, interfaces: [TestObject().object.interfaces[0]], shownOnlyTo: pair.client.uniqueName))
        pair.service.export(ExportedObject(path: theirs, interfaces: [TestObject().object.interfaces[0]], shownOnlyTo: ":1.99999"))
        func children(_ path: ObjectPath) async throws -> [String] {
            try await introspect(pair, path).children(named: "node").compactMap { $0["name"] }
        }
        #expect(try await children("/org/mediabroker/Test") == ["Other", "Player", "Requests"])
        #expect(try await children("/org/mediabroker/Test/Requests") == ["Mine"])
        #expect(try await introspect(pair, mine).children(named: "interface").count > 0)
        #expect(try await introspect(pair, theirs).children(named: "interface").isEmpty)
    }

    @Test func gdbusParsesTheXMLAndWalksDownFromTheRoot() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        Self.serve(pair, TestObject())
        let result = try ChildProcess.run(
            "gdbus", arguments: ["introspect", "--address", pair.bus.address, "--dest", pair.service.uniqueName,
                                 "--object-path", "/", "--recurse"],
            timeout: .seconds(20))
        #expect(result.status == .exited(0), "\(result.standardError)")
        let out = result.standardOutput
        for expected in [
            "node /org/mediabroker/Test/Player {", "node /org/mediabroker/Test/Other/Deep {",
            "interface org.mediabroker.Test.Player {", "Describe(in  s name,", "out u count);",
            "Changed(s what,", "readonly s Title = 'Blue Train';", "readwrite i Volume = 5;",
            "@org.freedesktop.DBus.Property.EmitsChangedSignal(\"invalidates\")", "interface org.mediabroker.Test.Other {",
        ] {
            #expect(out.contains(expected), "gdbus printed no \(expected)\n\(out)")
        }
    }
}

/// The document of an interface alone — what a file in `/usr/share/dbus-1/interfaces/` holds — is
/// the XML `Introspect` answers for it, with the interface's own annotations.
@Suite struct InterfaceDocumentTests {
    static let name: InterfaceName = "org.mediabroker.Test.Documented"
    static let declared: ExportedInterface = {
        var interface = ExportedInterface(
            name: name,
            methods: [ExportedMethod("Ask", inputs: [Argument("question", .string)], handler: { _ in })],
            properties: [ExportedProperty("Size", signature: .uint32, get: { .uint32(1) })
                .annotated(Annotation("org.gtk.GDBus.DocString", "how big"))],
            signals: [ExportedSignal("Rang").annotated(Annotation("org.gtk.GDBus.Since", "2"))])
        interface.annotations = [Annotation("org.gtk.GDBus.DocString", "Two lines:\nthe second <b>&</b> \"quoted\".")]
        return interface
    }()

    @Test func theDocumentHoldsTheInterfaceAloneWithItsAnnotationsReadBackWhole() throws {
        let text = ExportedInterface.introspectionDocument([Self.declared])
        #expect(text.hasPrefix("<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\""))
        let root = try XMLNode.parse(text)
        #expect(root.children.map { $0["name"] } == [Self.name.rawValue], "no standard interface, no child node")
        let interface = try #require(root.child("interface", named: Self.name.rawValue))
        #expect(interface.children(named: "annotation").map { $0["value"] } == ["Two lines:\nthe second <b>&</b> \"quoted\"."])
        #expect(interface.child("property", named: "Size")?.children.map { $0["value"] } == ["how big"])
        #expect(interface.child("signal", named: "Rang")?.children.map { $0["value"] } == ["2"])
    }

    @Test func introspectAnswersTheSameInterfaceElement() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let path: ObjectPath = "/org/mediabroker/Test/Documented"
        pair.service.export(ExportedObject(path: path, interfaces: [Self.declared]))
        let reply = try await pair.client.call(pair.call(path, .introspectable, "Introspect"))
        let served = try XMLNode.parse(try reply.arguments[0].string()).child("interface", named: Self.name.rawValue)
        let document = try XMLNode.parse(ExportedInterface.introspectionDocument([Self.declared]))
        #expect(served == document.child("interface", named: Self.name.rawValue))
    }
}
