import SwiftDBus
import Testing

/// Signatures are validated by libdbus; complete types split and count as the specification says.
@Suite struct SignatureTests {
    static let arrays32 = String(repeating: "a", count: 32) + "i"
    static let arrays33 = String(repeating: "a", count: 33) + "i"
    static let structs32 = String(repeating: "(", count: 32) + "i" + String(repeating: ")", count: 32)
    static let structs33 = String(repeating: "(", count: 33) + "i" + String(repeating: ")", count: 33)

    @Test("valid signatures are accepted", arguments: [
        "", "y", "bnqiuxtdsogvh", "a{sv}", "a{ias}", "a{oa{sv}}", "(i)", "(ia{s(yv)})", "aai", "av", "a(ss)",
        arrays32, structs32,
    ])
    func valid(_ text: String) throws {
        #expect(try Signature(text).rawValue == text)
    }

    @Test("invalid signatures are rejected", arguments: [
        "a", "aa", "a{vs}", "a{(i)s}", "a{ass}", "a{s}", "a{sss}", "{sv}", "()", "(i", "i)", "z", "a{sv",
        "s\u{0}", arrays33, structs33, String(repeating: "i", count: 256),
    ])
    func invalid(_ text: String) {
        #expect(throws: InvalidNameError.self) { try Signature(text) }
    }

    @Test func completeTypesSplitASequence() throws {
        #expect(Signature("sa{sv}(ii)vaai").completeTypes == ["s", "a{sv}", "(ii)", "v", "aai"])
        #expect(Signature.vardict.completeTypes == [.vardict])
        #expect(Signature.empty.completeTypes.isEmpty)
    }

    @Test func oneCompleteTypeIsWhatArraysAndVariantsHold() throws {
        #expect(Signature.vardict.isSingleCompleteType)
        #expect(Signature("(ia{sv})").isSingleCompleteType)
        #expect(try Signature(Self.arrays32).isSingleCompleteType)
        #expect(!Signature("ss").isSingleCompleteType)
        #expect(!Signature.empty.isSingleCompleteType)
    }

    @Test func builtSignaturesComposeTheirParts() {
        #expect(Signature.array(of: .string).rawValue == "as")
        #expect(Signature.dictionary(.string, .variant) == .vardict)
        #expect(Signature.sequence([.string, .vardict, .uint32]).rawValue == "sa{sv}u")
    }

    @Test func everyValueKnowsItsSignatureEvenWhenEmpty() {
        #expect(DBusValue.array(element: .vardict, []).signature.rawValue == "aa{sv}")
        #expect(DBusValue.dictionary(key: .int64, value: .double, []).signature.rawValue == "a{xd}")
        #expect(DBusValue.structure([.int32(1), .strings([])]).signature.rawValue == "(ias)")
        #expect(DBusValue.variant(.variant(.byte(1))).signature == .variant)
    }
}
