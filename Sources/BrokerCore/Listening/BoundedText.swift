/// Text from other processes made fit to store: control characters become spaces, surrounding
/// whitespace goes, and what remains is cut to a byte budget at a `Character` boundary.
///
/// The work is bounded by the budget, not by the input: a 1 MB title costs a scan of its leading
/// whitespace and then at most `maxBytes` bytes of grapheme breaking.
package enum BoundedText {
    /// `text` cleaned and cut to at most `maxBytes` UTF-8 bytes; `nil` when nothing is left.
    ///
    /// - Control characters (Unicode category Cc: tabs, newlines, escapes) become a space, so a title
    ///   can never move a terminal's cursor or break a table row; format characters such as the
    ///   right-to-left marks that RTL text needs are kept.
    /// - Whitespace around the text is removed; whitespace inside is kept as sent.
    /// - The cut never splits a `Character` (an emoji with its modifiers, a letter with its accents).
    ///   A single `Character` larger than the whole budget (a "zalgo" cluster) is dropped with
    ///   everything after it.
    package static func clean(_ text: String, maxBytes: Int) -> String? {
        isAlreadyClean(text, maxBytes: maxBytes) ? text : cleanCharacters(text, maxBytes: maxBytes)
    }

    /// ``clean(_:maxBytes:)`` one `Character` at a time, without its fast path.
    static func cleanCharacters(_ text: String, maxBytes: Int) -> String? {
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

    /// The fast path for the usual case, where ``clean(_:maxBytes:)`` would give `text` back as it
    /// is: within budget, no control character, no whitespace around it. Looks at bytes, not
    /// characters, and only non-ASCII text has its first and last `Character` formed.
    ///
    /// The controls (category Cc) are exactly U+0000–U+001F and U+007F–U+009F: bytes below 0x20,
    /// 0x7F, and the two-byte sequences C2 80 to C2 9F. The only whitespace among printable ASCII is
    /// the space.
    private static func isAlreadyClean(_ text: String, maxBytes: Int) -> Bool {
        let count = text.utf8.count
        guard count > 0, count <= maxBytes else { return false }
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (clean: Bool, ascii: Bool) {
            guard bytes[0] != 0x20, bytes[count - 1] != 0x20 else { return (false, true) }
            return scanForControls(UnsafeRawBufferPointer(bytes))
        }
        // The bytes where they lie; `withUTF8` would need a mutable copy, a retain and a release.
        let scanned: (clean: Bool, ascii: Bool)
        if let direct = text.utf8.withContiguousStorageIfAvailable(scan) {
            scanned = direct
        } else {
            var copy = text
            scanned = copy.withUTF8(scan)
        }
        guard scanned.clean else { return false }
        if scanned.ascii { return true }
        return !(text.first?.isWhitespace ?? true) && !(text.last?.isWhitespace ?? true)
    }

    /// Whether `bytes` (UTF-8) hold no control character, and whether they are all ASCII. Eight
    /// bytes at a time while they are ASCII.
    private static func scanForControls(_ bytes: UnsafeRawBufferPointer) -> (clean: Bool, ascii: Bool) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if word & high != 0 { break }
            // With every byte below 0x80: a byte below 0x20, or one equal to 0x7F, sets its top bit.
            let below = (word &- ones &* 0x20) & ~word & high
            let delete = word ^ (ones &* 0x7F)
            if below | ((delete &- ones) & ~delete & high) != 0 { return (false, true) }
            index += 8
        }
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F { return (false, ascii) }
            if byte >= 0x80 {
                ascii = false
                if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] < 0xA0 { return (false, false) }
            }
            index += 1
        }
        return (true, ascii)
    }

    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// `text` with surrounding whitespace removed (no other cleaning), for short protocol words.
    package static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
