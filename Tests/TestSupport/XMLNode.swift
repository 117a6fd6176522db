// Reading XML in tests: introspection data, the interface file.

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A parsed XML element: enough of a tree to check introspection data.
public struct XMLNode: Equatable, Sendable {
    public var name: String
    public var attributes: [String: String]
    public var children: [XMLNode] = []

    public subscript(attribute: String) -> String? { attributes[attribute] }

    public func children(named name: String) -> [XMLNode] { children.filter { $0.name == name } }
    public func child(_ element: String, named name: String) -> XMLNode? { children.first { $0.name == element && $0["name"] == name } }

    /// Parses `text`; throws when it is not well-formed XML.
    public static func parse(_ text: String) throws -> XMLNode {
        let builder = Builder()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw TestSupportError("invalid XML (\(parser.parserError.map { "\($0)" } ?? "no root")):\n\(text)")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLNode] = []
        var root: XMLNode?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            stack.append(XMLNode(name: name, attributes: attributes))
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let done = stack.removeLast()
            if stack.isEmpty { root = done } else { stack[stack.count - 1].children.append(done) }
        }
    }
}
