import Foundation

/// A gettext catalog (`.po` or `.pot`) read into its messages: enough of the format for the
/// tests to compare placeholders — contexts, plurals, continued lines and C escapes.
public struct CatalogFile: Sendable {
    public struct Message: Equatable, Sendable {
        public var context: String?
        public var id: String
        public var plural: String?
        /// `msgstr`, or `msgstr[0]`, `msgstr[1]`… for a plural.
        public var translations: [String]
        public var isFuzzy = false

        public init(context: String? = nil, id: String, plural: String? = nil, translations: [String], isFuzzy: Bool = false) {
            self.context = context
            self.id = id
            self.plural = plural
            self.translations = translations
            self.isFuzzy = isFuzzy
        }
    }

    /// Every message but the header (the one with an empty id).
    public var messages: [Message] = []

    public init(_ text: String) {
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
    public static func unquoted(_ quoted: Substring) -> String {
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

extension CatalogFile {
    /// The translation of `english` (no context, singular) as it shows on screen — a mnemonic
    /// underscore, on either side, is not shown — or nil when the catalog has none.
    public func shownTranslation(of english: String) -> String? {
        let shown = { (text: String) in text.replacingOccurrences(of: "_", with: "") }
        return messages.first { $0.context == nil && shown($0.id) == english }?.translations.first
            .flatMap { $0.isEmpty ? nil : shown($0) }
    }

    /// The names among `shown` that are English words this catalog translates otherwise: a name
    /// that reads as a message's English (or its plural) — with `{placeholders}` standing for any
    /// text, a mnemonic underscore dropped — where the translation differs. A message whose own
    /// words are under three letters (`{show}: {episode}`) would match anything, so it is left out.
    public func untranslated(among shown: [String]) -> [(name: String, english: String)] {
        let patterns = englishTranslatedOtherwise.compactMap { english in Self.shownPattern(english).map { (english, $0) } }
        return shown.flatMap { name in patterns.filter { name.wholeMatch(of: $0.1) != nil }.map { (name, $0.0) } }
    }

    /// The English of each translated message, singular and plural, where no translation reads the same.
    var englishTranslatedOtherwise: [String] {
        messages.flatMap { message -> [String] in
            let translated = Set(message.translations.filter { !$0.isEmpty })
            guard !translated.isEmpty else { return [] }
            return ([message.id] + (message.plural.map { [$0] } ?? [])).filter { !translated.contains($0) }
        }
    }

    /// A pattern for `english` as it shows: placeholders match any text, the mnemonic underscore
    /// is gone, everything else is itself.
    static func shownPattern(_ english: String) -> Regex<Substring>? {
        var pattern = "", letters = 0, inPlaceholder = false
        for character in english.replacingOccurrences(of: "_", with: "") {
            if character == "{" { inPlaceholder = true; pattern += ".+"; continue }
            if character == "}" && inPlaceholder { inPlaceholder = false; continue }
            if inPlaceholder { continue }
            if character.isLetter { letters += 1 }
            pattern += character.isLetter || character.isNumber || character == " " ? String(character) : "\\" + String(character)
        }
        guard letters >= 3 else { return nil }
        return try? Regex<Substring>(pattern)
    }
}

extension CatalogFile {
    /// English a catalog translates otherwise, found inside a program's text output: for each
    /// message whose translation differs, the runs of its own words between `{placeholders}` (one
    /// per line of a long text) that hold three words or more — shorter ones, such as an option's
    /// name, are the same in every language.
    public func englishPassages(in output: String) -> [String] {
        let passages = englishTranslatedOtherwise.flatMap(Self.ownWords)
        return Array(Set(passages.filter { output.contains($0) })).sorted()
    }

    /// `english`'s runs of words between placeholders and line breaks, of three words or more.
    static func ownWords(_ english: String) -> [String] {
        english.replacingOccurrences(of: "_", with: "")
            .split(whereSeparator: { $0 == "\n" || $0 == "{" || $0 == "}" }).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.split(separator: " ").filter { $0.contains(where: \.isLetter) }.count >= 3 && !$0.contains("broker-ctl ") }
    }
}
