import AssetContract
import Foundation
import Testing
import TestSupport

/// docs/dbus-api.md's list of asset keys is the contract's table (``AssetContract``), word for
/// word: a key added, retyped or re-explained in the table and not in the docs fails here.
@Suite("The asset keys in docs/dbus-api.md")
struct AssetContractDocsTests {
    @Test("the asset section's table is AssetContract.markdownTable")
    func table() throws {
        let docs = try SourceTree.read("docs/dbus-api.md")
        let section = try #require(docs.range(of: "## The asset: `a{sv}`"), "docs/dbus-api.md has no asset section")
        let rest = docs[section.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        let lines = rest[..<end].split(separator: "\n").filter { $0.hasPrefix("|") }.map(String.init)
        let expected = AssetContract.markdownTable
        #expect(lines.joined(separator: "\n") == expected, "paste this table into docs/dbus-api.md:\n\(expected)")
    }

    @Test("every key has a meaning, a D-Bus type, and a name the contract spells once")
    func keys() {
        #expect(Set(AssetContract.keys.map(\.key)) == Set(AssetKey.allCases))
        #expect(AssetContract.keys.count == AssetKey.allCases.count)
        #expect(AssetContract.keys.map(\.key.rawValue) == AssetContract.keys.map(\.key.rawValue).sorted())
        #expect(AssetContract.keys.allSatisfy { !$0.meaning.isEmpty })
        #expect(AssetContract.keys.filter { $0.donate == .required }.map(\.key) == [.appID, .title])
    }
}
