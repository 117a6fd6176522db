// Reading a man page's roff source as text, section by section, for the drift tests.

import Foundation

/// A manual page in roff with the man macros, split at `.SH` and `.SS` and reduced to plain text:
/// macro names and font escapes dropped, `\-` read as `-`. Enough for the pages in man/, which are
/// checked to render cleanly by groff separately.
struct ManPage {
    /// A stretch of the page under one `.SH` heading, and under one `.SS` heading within it if any.
    struct Block {
        var section: String
        var subsection: String?
        var lines: [String] = []

        /// The block's words as a reader sees them, on one line, single-spaced.
        var text: String {
            ManPage.collapse(lines.map(ManPage.plainText).joined(separator: " "))
        }

        /// The tags of its `.TP` entries (the line after each `.TP`), as plain text.
        var tags: [String] {
            var result: [String] = []
            var lines = self.lines[...]
            while let line = lines.popFirst() {
                guard ManPage.macro(of: line) == "TP" else { continue }
                if let tag = lines.first(where: { !ManPage.isComment($0) }) {
                    result.append(ManPage.collapse(ManPage.plainText(tag)))
                }
            }
            return result
        }

        /// The tags that name options, split at commas: `-h, --help` gives `-h` and `--help`.
        var optionTags: [String] {
            tags.flatMap { tag in
                tag.split(separator: ",").map { $0.trimming(" ") }
            }.filter { $0.hasPrefix("-") }
        }
    }

    let file: String
    let blocks: [Block]

    init(file: String, source: String) {
        self.file = file
        var blocks: [Block] = []
        var current: Block?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            switch ManPage.macro(of: line) {
            case "SH":
                if let current { blocks.append(current) }
                current = Block(section: ManPage.plainText(line), subsection: nil)
            case "SS":
                if let current { blocks.append(current) }
                current = Block(section: current?.section ?? "", subsection: ManPage.plainText(line))
            default:
                current?.lines.append(line)
            }
        }
        if let current { blocks.append(current) }
        self.blocks = blocks
    }

    /// The text of `.SH section` before its first `.SS`.
    func section(_ name: String) -> Block? {
        blocks.first { $0.section == name && $0.subsection == nil }
    }

    /// `.SS name` under `.SH section`.
    func subsection(_ name: String, of section: String) -> Block? {
        blocks.first { $0.section == section && $0.subsection == name }
    }

    /// The `.SS` headings under `.SH section`, in order.
    func subsectionNames(of section: String) -> [String] {
        blocks.filter { $0.section == section }.compactMap(\.subsection)
    }

    // MARK: Reading roff

    static func isComment(_ line: String) -> Bool {
        line.hasPrefix(".\\\"") || line.hasPrefix("'\\\"") || line.hasPrefix("\\\"")
    }

    /// `TP` for `.TP`, nil for a text line or a comment.
    static func macro(of line: String) -> String? {
        guard line.hasPrefix(".") || line.hasPrefix("'"), !isComment(line) else { return nil }
        let name = line.dropFirst().prefix { !$0.isWhitespace }
        return name.isEmpty ? nil : String(name)
    }

    /// A line as text: a text line unescaped; a font or synopsis macro's arguments the way they
    /// print (`.BI \-\-limit " N"` → `--limit N`, `.OP \-\-json` → `[--json]`); other macros nothing.
    static func plainText(_ line: String) -> String {
        if isComment(line) { return "" }
        guard let name = macro(of: line) else { return unescape(line) }
        let arguments = splitArguments(String(line.dropFirst(1 + name.count))).map(unescape)
        switch name {
        case "B", "I", "SM", "SB", "SY", "SH", "SS": return arguments.joined(separator: " ")
        case "BI", "IB", "BR", "RB", "IR", "RI": return arguments.joined()
        case "OP": return "[" + arguments.joined(separator: " ") + "]"
        default: return ""
        }
    }

    /// Macro arguments: separated by spaces, a double-quoted argument may hold spaces.
    static func splitArguments(_ text: String) -> [String] {
        var arguments: [String] = []
        var current = ""
        var quoted = false
        var started = false
        var characters = text[...]
        while let character = characters.popFirst() {
            if character == "\\", let next = characters.popFirst() {
                current.append(character)
                current.append(next)
                started = true
            } else if character == "\"" {
                if quoted, characters.first == "\"" {
                    current.append("\"")
                    characters.removeFirst()
                } else {
                    quoted.toggle()
                    started = true
                }
            } else if character == " " && !quoted {
                if started { arguments.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { arguments.append(current) }
        return arguments
    }

    /// Escapes as they print: `\-` is `-`, fonts and zero-width marks vanish.
    static func unescape(_ text: String) -> String {
        let named: [String: String] = [
            "em": "—", "en": "–", "->": "→", "aq": "'", "lq": "\u{201C}", "rq": "\u{201D}", "dq": "\"",
            "bu": "•", "co": "©", "mi": "-", "hy": "-", "ti": "~", "ha": "^",
        ]
        var result = ""
        var characters = text[...]
        while let character = characters.popFirst() {
            guard character == "\\", let next = characters.popFirst() else {
                result.append(character)
                continue
            }
            switch next {
            case "-": result.append("-")
            case "e", "\\": result.append("\\")
            case " ", "~": result.append(" ")
            case "&", "c", "|", "^", ")", "/", ",": break
            case "f":
                // \fB, \fI, \fR, \fP or \f[name]
                if characters.first == "[" {
                    characters = characters.drop { $0 != "]" }.dropFirst()
                } else {
                    _ = characters.popFirst()
                }
            case "(":
                let name = String(characters.prefix(2))
                characters = characters.dropFirst(2)
                result.append(named[name] ?? "")
            case "[":
                let name = String(characters.prefix { $0 != "]" })
                characters = characters.drop { $0 != "]" }.dropFirst()
                result.append(named[name] ?? "")
            default:
                result.append(next)
            }
        }
        return result
    }

    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// How `text` is written in roff source: backslashes and hyphens escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
    }
}

extension StringProtocol {
    func trimming(_ set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
