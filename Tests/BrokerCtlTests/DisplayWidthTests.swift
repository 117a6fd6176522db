import Testing
@testable import broker_ctl

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("Teardrop", 8), ("Björk", 5), ("e\u{301}", 1), ("東京事変", 8), ("아이유", 6), ("ＡＢ", 4),
        ("🎵", 2), ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("☺", 1), ("☺️", 2), ("", 0),
        // The ASCII fast paths' edges: a keycap starts with an ASCII digit; CR LF is one character.
        ("1\u{FE0F}\u{20E3}", 2), ("#\u{FE0F}\u{20E3}x", 3), ("a\r\nb", 3), ("a\tb", 3),
    ])
    func columnsCountCharactersAndWideOnesTwice(_ text: String, columns: Int) {
        #expect(text.terminalColumns == columns)
    }

    @Test func truncationEndsInAnEllipsisWithinTheWidth() {
        #expect("Teardrop".truncated(toColumns: 8) == "Teardrop")
        #expect("Teardrop".truncated(toColumns: 5) == "Tear…")
        #expect("Teardrop".truncated(toColumns: 1) == "…")
        #expect("Teardrop".truncated(toColumns: 0) == "")
    }

    @Test func truncationNeverSplitsAWideCharacterOrACluster() {
        #expect("東京事変".truncated(toColumns: 6) == "東京…")
        #expect("東京事変".truncated(toColumns: 4).terminalColumns <= 4)
        #expect("👨‍👩‍👧👨‍👩‍👧".truncated(toColumns: 3) == "👨‍👩‍👧…")
        #expect("ée\u{301}é".truncated(toColumns: 2) == "é…")
    }

    @Test func paddingFillsToTheColumnCount() {
        #expect("東京".padded(toColumns: 6) == "東京  ")
        #expect("abc".padded(toColumns: 2) == "abc")
    }
}
