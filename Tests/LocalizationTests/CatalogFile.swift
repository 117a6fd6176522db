/// A gettext catalog (`.po` or `.pot`) read into its messages: enough of the format for the
/// tests to compare placeholders — contexts, plurals, continued lines and C escapes.
struct CatalogFile {
    struct Message: Equatable {
        var context: String?
        var id: String
        var plural: String?
        /// `msgstr`, or `msgstr[0]`, `msgstr[1]`… for a plural.
        var translations: [String]
        var isFuzzy = false
    }

    /// Every message but the header (the one with an empty id).
    var messages: [Message] = []

    init(_ text: String) {
        var current: Message?
        var field: String?
        var fuzzy = false
        func finish() {
            if var message = current, !message.id.isEmpty {
                message.isFuzzy = fuzzy
                messages.append(message)
            }
            current = nil
            fuzzy = false
        }
        func append(_ text: String, to field: String) {
            guard current != nil else { return }
            switch field {
            case "msgctxt": current!.context = (current!.context ?? "") + text
            case "msgid": current!.id += text
            case "msgid_plural": current!.plural = (current!.plural ?? "") + text
            default:
                let index = field.hasPrefix("msgstr[") ? Int(field.dropFirst(7).dropLast()) ?? 0 : 0
                while current!.translations.count <= index { current!.translations.append("") }
                current!.translations[index] += text
            }
        }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingPrefix(while: { $0 == " " })
            if line.isEmpty {
                finish()
            } else if line.hasPrefix("#,") {
                if line.contains("fuzzy") { fuzzy = true }
            } else if line.hasPrefix("#") {
                continue
            } else if line.hasPrefix("\"") {
                if let field { append(Self.unquoted(line), to: field) }
            } else if let space = line.firstIndex(of: " ") {
                let keyword = String(line[..<space])
                if keyword == "msgctxt" || (keyword == "msgid" && current?.id.isEmpty == false) { finish() }
                if current == nil { current = Message(id: "", translations: []) }
                field = keyword
                append(Self.unquoted(line[line.index(after: space)...]), to: keyword)
            }
        }
        finish()
    }

    /// The text of one `"…"` with its escapes undone.
    static func unquoted(_ quoted: Substring) -> String {
        var inner = quoted.drop(while: { $0 != "\"" }).dropFirst()
        if inner.hasSuffix("\"") { inner = inner.dropLast() }
        var result = ""
        var escaping = false
        for character in inner {
            if escaping {
                switch character {
                case "n": result += "\n"
                case "t": result += "\t"
                default: result.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension Substring {
    fileprivate func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring { drop(while: predicate) }
}
