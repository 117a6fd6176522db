/// Words from players made literal in Markdown: whatever a title holds, it prints as itself and
/// never becomes a link, an image, HTML, a heading, emphasis, code or an Obsidian tag or comment.
///
/// Characters that CommonMark, Python-Markdown and Obsidian all take back from a backslash get
/// one (`\*`, the raw note stays readable); the others become character references (`&lt;`),
/// which every renderer prints as the character and none reads as syntax. A note is read raw as
/// often as rendered, so nothing harmless is escaped: `R&B` and `100%` stay as they are.
enum MarkdownEscaping {
    /// Taken back from a backslash by CommonMark and Python-Markdown alike.
    private static let backslashed: Set<Character> = ["\\", "`", "*", "_", "[", "]", "#"]
    /// Python-Markdown keeps the backslash before these, so they are references.
    private static let referenced: [Character: String] = [
        "<": "&lt;", ">": "&gt;",
        // A table cell's end (GFM), strikethrough (GFM, Obsidian), math (Obsidian).
        "|": "&#124;", "~": "&#126;", "$": "&#36;",
    ]
    /// Syntax only when doubled: an Obsidian comment (`%%`) hides text, a highlight (`==`).
    private static let syntaxWhenDoubled: [Character: String] = ["%": "&#37;", "=": "&#61;"]

    /// `text` on one line, to be read as itself in a heading, a list item or an image's alt text.
    static func literal(_ text: String) -> String {
        let characters = Array(text.onOneLine)
        var escaped = ""
        for (index, character) in characters.enumerated() {
            if backslashed.contains(character) {
                escaped += "\\" + String(character)
            } else if let reference = referenced[character] {
                escaped += reference
            } else if let reference = syntaxWhenDoubled[character],
                      characters[safe: index - 1] == character || characters[safe: index + 1] == character {
                escaped += reference
            } else if character == "&", startsCharacterReference(characters[(index + 1)...]) {
                escaped += "&amp;"
            } else {
                escaped.append(character)
            }
        }
        return escaped
    }

    /// `![description](<path>)`: an image of a local file. The angle brackets keep a path with
    /// spaces or parentheses whole, and `>` and `\` are taken back from a backslash everywhere.
    /// A path with a line break cannot be a destination, and one with `<` is read differently by
    /// CommonMark (which wants `\<`) and Python-Markdown (which ends the destination there): both
    /// give nil, as the broker's own art files never have either.
    static func image(path: String, description: String) -> String? {
        guard !path.isEmpty, path.onOneLine == path, !path.contains("<") else { return nil }
        var destination = ""
        for character in path {
            if character == ">" || character == "\\" { destination += "\\" }
            destination.append(character)
        }
        return "![\(literal(description))](<\(destination)>)"
    }

    /// Whether what follows an `&` would make it a character reference such as `&amp;` or
    /// `&#60;`, which a renderer would turn into another character.
    private static func startsCharacterReference(_ rest: ArraySlice<Character>) -> Bool {
        let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "#") }
        return !name.isEmpty && rest.dropFirst(name.count).first == ";"
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
