import SwiftDBus
import Testing

/// Bus names, object paths, interfaces, members and error names are accepted exactly when
/// libdbus's own validators accept them; a NUL that C would silently cut is never valid.
@Suite struct NameValidationTests {
    static let longElement = String(repeating: "a", count: 250)

    @Test("well-known and unique bus names are valid", arguments: [
        "org.mediabroker.MediaBroker1", "org.mpris.MediaPlayer2.mpv", "org.mpris.MediaPlayer2.vlc.instance1234",
        "a.b", "org.with-hyphen.x", "_private.name", ":1.42", ":1.0", ":abc.1x", "org.freedesktop.DBus",
    ])
    func validBusNames(_ text: String) throws {
        #expect(try BusName(text).rawValue == text)
    }

    @Test("malformed bus names are rejected", arguments: [
        "", "org", ".org.x", "org.x.", "org..x", "1org.x", "org.1x", "org.x y", "org/x", "org.x\u{0}y",
        ":1.", ":1..2", ":1.x y", "org.é.x", "org." + longElement + ".x",
    ])
    func invalidBusNames(_ text: String) {
        #expect(throws: InvalidNameError.self) { try BusName(text) }
    }

    /// The specification asks two elements of every bus name; libdbus, whose validator this layer
    /// uses, lets unique names (which only the bus assigns) have one.
    @Test func libdbusAcceptsOneElementUniqueNames() throws {
        for text in [":", ":1"] { #expect(try BusName(text).isUnique) }
    }

    @Test func onlyNamesStartingWithAColonAreUnique() throws {
        let unique = ":1.42", wellKnown = "org.mediabroker.MediaBroker1"
        #expect(try BusName(unique).isUnique)
        #expect(try !BusName(wellKnown).isUnique)
    }

    @Test("object paths are valid", arguments: ["/", "/a", "/org/mpris/MediaPlayer2", "/a_b/C9/_", "/1/2/3"])
    func validPaths(_ text: String) throws {
        #expect(try ObjectPath(text).rawValue == text)
    }

    @Test("malformed object paths are rejected", arguments: [
        "", "a", "a/b", "/a/", "//", "/a//b", "/a-b", "/a.b", "/caf\u{e9}", "/日本", "/a b", "/a\u{0}", "/\u{0}",
    ])
    func invalidPaths(_ text: String) {
        #expect(throws: InvalidNameError.self) { try ObjectPath(text) }
    }

    @Test func pathComponentsSplitOnSlashesAndTheRootHasNone() throws {
        #expect(ObjectPath.root.components.isEmpty)
        #expect(ObjectPath("/org/mpris/MediaPlayer2").components == ["org", "mpris", "MediaPlayer2"])
    }

    @Test("interface names are valid", arguments: ["org.freedesktop.DBus.Properties", "a.b", "_a._b", "org.mpris.MediaPlayer2"])
    func validInterfaces(_ text: String) throws {
        #expect(try InterfaceName(text).rawValue == text)
    }

    @Test("malformed interface names are rejected", arguments: [
        "", "org", "org.", ".org", "org..x", "org.1x", "org.x-y", ":1.2", "org.x\u{0}.y", "org.\u{e9}t\u{e9}",
        "org." + longElement + ".x",
    ])
    func invalidInterfaces(_ text: String) {
        #expect(throws: InvalidNameError.self) { try InterfaceName(text) }
    }

    @Test("member names are valid", arguments: ["Get", "PropertiesChanged", "_x", "a1", String(repeating: "m", count: 255)])
    func validMembers(_ text: String) throws {
        #expect(try MemberName(text).rawValue == text)
    }

    @Test("malformed member names are rejected", arguments: [
        "", "1x", "a.b", "a-b", "a b", "Get\u{0}", "\u{e9}", String(repeating: "m", count: 256),
    ])
    func invalidMembers(_ text: String) {
        #expect(throws: InvalidNameError.self) { try MemberName(text) }
    }

    @Test("error names are valid", arguments: ["org.freedesktop.DBus.Error.Failed", "org.mediabroker.Error.Custom", "a.b"])
    func validErrorNames(_ text: String) throws {
        #expect(try ErrorName(text).rawValue == text)
    }

    @Test("malformed error names are rejected", arguments: ["", "Failed", "org.", "org..Failed", "org.1x", "org.x-y", "org.x\u{0}.y"])
    func invalidErrorNames(_ text: String) {
        #expect(throws: InvalidNameError.self) { try ErrorName(text) }
    }

    @Test func theErrorNamesTheKindAndTheText() {
        // Through a variable: `ObjectPath("/a/")` with a literal would pick the literal initialiser.
        let text = "/a/"
        do {
            _ = try ObjectPath(text)
            Issue.record("'/a/' was accepted")
        } catch {
            #expect(error.kind == "object path")
            #expect(error.text == "/a/")
            #expect(error.description == "'/a/' is not a valid D-Bus object path")
        }
    }

    @Test func theStandardNamesAreWhatTheSpecificationSays() {
        #expect(ErrorName.unknownMethod.rawValue == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(ErrorName.unknownObject.rawValue == "org.freedesktop.DBus.Error.UnknownObject")
        #expect(ErrorName.unknownInterface.rawValue == "org.freedesktop.DBus.Error.UnknownInterface")
        #expect(ErrorName.unknownProperty.rawValue == "org.freedesktop.DBus.Error.UnknownProperty")
        #expect(ErrorName.propertyReadOnly.rawValue == "org.freedesktop.DBus.Error.PropertyReadOnly")
        #expect(ErrorName.invalidArgs.rawValue == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(ErrorName.noReply.rawValue == "org.freedesktop.DBus.Error.NoReply")
        #expect(ErrorName.disconnected.rawValue == "org.freedesktop.DBus.Error.Disconnected")
        #expect(InterfaceName.properties.rawValue == "org.freedesktop.DBus.Properties")
    }
}
