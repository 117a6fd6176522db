/// How many terminal columns text takes: one per character (grapheme cluster), two for East Asian
/// wide characters and emoji. Close to what terminals do, without a full `wcwidth` table.
extension Character {
    var terminalColumns: Int {
        guard let first = unicodeScalars.first else { return 0 }
        // Most text is ASCII, and the Unicode property lookups below were a quarter of a whole
        // `broker-ctl recent` (perf). No ASCII scalar has emoji presentation; the only wide
        // characters that start with one are keycaps (1️⃣), which carry U+FE0F.
        if first.isASCII, !unicodeScalars.contains("\u{FE0F}") { return 1 }
        if first.properties.isEmojiPresentation { return 2 }
        // U+FE0F asks for the emoji form of a character that is text by default (☺︎ versus ☺️).
        if first.properties.isEmoji, unicodeScalars.contains("\u{FE0F}") { return 2 }
        return first.isEastAsianWide ? 2 : 1
    }
}

extension StringProtocol {
    var terminalColumns: Int {
        // ASCII without CR is one character, and one column, a byte: no grapheme breaking needed
        // (only CR LF is a two-scalar cluster in ASCII).
        if utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return utf8.count }
        return reduce(0) { $0 + $1.terminalColumns }
    }

    /// The text cut to at most `columns` columns, ending in `…` when anything was cut.
    func truncated(toColumns columns: Int) -> String {
        guard terminalColumns > columns else { return String(self) }
        guard columns > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in self {
            let width = character.terminalColumns
            if used + width > columns - 1 { break }
            kept.append(character)
            used += width
        }
        return kept + "…"
    }

    /// The text followed by spaces up to `columns` columns.
    func padded(toColumns columns: Int) -> String {
        String(self) + String(repeating: " ", count: Swift.max(0, columns - terminalColumns))
    }
}

extension Unicode.Scalar {
    /// The blocks Unicode's East Asian Width marks Wide or Fullwidth: Hangul, CJK, kana, fullwidth forms.
    fileprivate var isEastAsianWide: Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
