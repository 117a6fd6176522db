/// Text from other processes made fit to store: control characters become spaces, surrounding
/// whitespace goes, and what remains is cut to a byte budget at a `Character` boundary.
///
/// The work is bounded by the budget, not by the input: a 1 MB title costs a scan of its leading
/// whitespace and then at most `maxBytes` bytes of grapheme breaking.
enum BoundedText {
    /// `text` cleaned and cut to at most `maxBytes` UTF-8 bytes; `nil` when nothing is left.
    ///
    /// - Control characters (Unicode category Cc: tabs, newlines, escapes) become a space, so a title
    ///   can never move a terminal's cursor or break a table row; format characters such as the
    ///   right-to-left marks that RTL text needs are kept.
    /// - Whitespace around the text is removed; whitespace inside is kept as sent.
    /// - The cut never splits a `Character` (an emoji with its modifiers, a letter with its accents).
    ///   A single `Character` larger than the whole budget (a "zalgo" cluster) is dropped with
    ///   everything after it.
    static func clean(_ text: String, maxBytes: Int) -> String? {
        if isPlainASCII(text, maxBytes: maxBytes) { return text }
        var result = ""
        var bytes = 0
        for character in text {
            let kept: Character = isControl(character) ? " " : character
            if result.isEmpty && kept.isWhitespace { continue }
            let size = kept.utf8.count
            if bytes + size > maxBytes { break }
            result.append(kept)
            bytes += size
        }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result.isEmpty ? nil : result
    }

    /// The fast path for the usual case: printable ASCII, within budget, no surrounding spaces.
    private static func isPlainASCII(_ text: String, maxBytes: Int) -> Bool {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maxBytes, utf8.first != 0x20, utf8.last != 0x20 else { return false }
        for byte in utf8 where byte < 0x20 || byte > 0x7E { return false }
        return true
    }

    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// `text` with surrounding whitespace removed (no other cleaning), for short protocol words.
    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
