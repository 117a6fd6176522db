/// Named placeholders, `{name}`, filled in after the lookup. Named rather than `%s` so that a
/// translation can reorder them and no format string ever reads words from the music.
enum Placeholders {
    /// `text` with each `{name}` that `values` names replaced by its value, in one pass: a value
    /// that itself holds `{name}` (a title with braces) stays as it is. Braces around anything
    /// else are kept.
    static func filled(_ text: String, _ values: KeyValuePairs<String, String>) -> String {
        filled(text, values.map { ($0.key, $0.value) })
    }

    static func filled(_ text: String, _ values: [(String, String)]) -> String {
        guard !values.isEmpty, text.contains("{") else { return text }
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"),
               let value = values.first(where: { $0.0 == rest[afterOpen..<close] })?.1 {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result.append("{")
                rest = rest[afterOpen...]
            }
        }
        return result + rest
    }

    /// The `{name}`s in `text`, sorted: what a translation must keep.
    static func names(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
            let name = rest[afterOpen..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "_" }) { names.append(String(name)) }
            rest = rest[rest.index(after: close)...]
        }
        return names.sorted()
    }
}
