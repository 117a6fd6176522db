import Testing
@testable import BrokerCore

/// Cleaning text from players: the byte-level fast path, taken for text that needs no change, must
/// give exactly what cleaning one `Character` at a time gives — for every input.
@Suite struct BoundedTextTests {
    static let samples: [String] = [
        "", " ", "a", "Plain ASCII title", " leading", "trailing ", "tab\tinside", "new\nline", "bell\u{7}",
        "delete\u{7F}char", "eight bytes here", "0123456\u{1}", "01234567\u{7F}", "0123456789abcdef\u{1F}",
        "Ólafur Arnalds", "file:///home/listener/Music/Ólafur Arnalds/re:member/01%20Track%201.flac",
        "C1 control \u{85} next line", "C1 \u{80} first", "C1 \u{9F} last", "not C1 \u{A0} nbsp inside",
        "\u{A0}nbsp first", "nbsp last\u{A0}", "\u{3000}ideographic space", "em space\u{2003}",
        "ends in U+0085\u{85}", "\u{200F}RTL mark first", "עברית ומספרים 123", "emoji 👩🏽‍💻 inside", "👩🏽‍💻",
        "e\u{301}", "a\u{301}\u{302}\u{303}", " \u{301}combining on a space", "x\u{2028}", "\u{2029}",
        "Zalgo z\u{300}\u{301}\u{302}\u{303}\u{304}\u{305}", "café", "日本語のタイトル", "\u{FEFF}BOM",
        String(repeating: "a", count: 40), String(repeating: "é", count: 20),
    ]

    @Test("the fast path agrees with cleaning character by character", arguments: [1, 2, 8, 16, 40, 1024])
    func fastPathAgrees(maxBytes: Int) {
        for sample in Self.samples {
            let fast = BoundedText.clean(sample, maxBytes: maxBytes)
            let slow = BoundedText.cleanCharacters(sample, maxBytes: maxBytes)
            #expect(fast == slow, "\(sample.debugDescription) within \(maxBytes) bytes")
            // And byte for byte, not only as canonically equivalent strings.
            #expect(fast.map { Array($0.utf8) } == slow.map { Array($0.utf8) })
        }
    }

    @Test("every control character at every offset of a word is caught")
    func controlsAtEveryOffset() {
        let controls = (0..<0x20).map { Unicode.Scalar(UInt8($0)) } + [Unicode.Scalar(UInt8(0x7F))]
            + (0x80...0x9F).map { Unicode.Scalar(UInt8($0)) }
        for control in controls {
            for offset in 0..<17 {
                var text = String(repeating: "x", count: 17)
                let index = text.index(text.startIndex, offsetBy: offset)
                text.replaceSubrange(index...index, with: String(Character(control)))
                #expect(BoundedText.clean(text, maxBytes: 64) == BoundedText.cleanCharacters(text, maxBytes: 64))
                #expect(BoundedText.clean(text, maxBytes: 64) != text)
            }
        }
    }
}
