/// The "desktop entry" key-file format shared by desktop files, `index.theme`, `.flatpak-info` and
/// GTK's `settings.ini`: `[Group]` headers, `Key=Value` lines, `#` comments.
///
/// Lenient by design, because the files come from any package on the system: a line that is
/// neither a comment, a group header nor `key=value` is skipped; lines before the first group are
/// skipped; invalid UTF-8 is repaired; CR before LF is dropped. When a group or key appears twice,
/// the first one wins (the spec calls duplicates an error without saying which to keep). Values
/// are kept raw — `unescaped(_:)` and `list(_:separator:)` apply the spec's escapes.
struct KeyFile {
    /// One group's entries in file order: keys (with any `[locale]` suffix) and raw values. A plain
    /// array, since groups hold a handful of keys and `index.theme` has hundreds of groups.
    struct Group {
        fileprivate(set) var entries: [(key: String, value: String)] = []

        /// The raw value of the first `key`.
        subscript(key: String) -> String? {
            entries.first { $0.key == key }?.value
        }
    }

    /// Group name → its entries.
    private(set) var groups: [String: Group] = [:]

    /// Parses `bytes`, keeping only the groups `keep` accepts (so a desktop file's actions, or the
    /// hundreds of directory groups of `index.theme` a caller does not need, cost nothing).
    init(parsing bytes: [UInt8], keeping keep: (String) -> Bool = { _ in true }) {
        bytes.withUnsafeBufferPointer { buffer in
            var current: String?
            var entries = Group()
            var seen: Set<String> = []
            var start = 0
            while start < buffer.count {
                var end = start
                while end < buffer.count && buffer[end] != Self.newline { end += 1 }
                var lineEnd = end
                if lineEnd > start && buffer[lineEnd - 1] == Self.carriageReturn { lineEnd -= 1 }
                consume(
                    UnsafeBufferPointer(rebasing: buffer[start..<lineEnd]), current: &current, entries: &entries, seen: &seen,
                    keep: keep)
                start = end + 1
            }
            if let current { groups[current] = entries }
        }
    }

    private static let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")

    private mutating func consume(
        _ line: UnsafeBufferPointer<UInt8>, current: inout String?, entries: inout Group, seen: inout Set<String>,
        keep: (String) -> Bool
    ) {
        var first = 0
        while first < line.count && (line[first] == Self.space || line[first] == Self.tab) { first += 1 }
        guard first < line.count, line[first] != UInt8(ascii: "#") else { return }
        if line[0] == UInt8(ascii: "[") {
            // A malformed header is a malformed line: skipped, the current group goes on.
            guard line[line.count - 1] == UInt8(ascii: "]"), line.count > 2 else { return }
            let name = String(decoding: UnsafeBufferPointer(rebasing: line[1..<(line.count - 1)]), as: UTF8.self)
            guard !name.contains("["), !name.contains("]") else { return }
            if let finished = current { groups[finished] = entries }
            entries = Group()
            // A repeated group is an error in the spec; keep the first and skip the repeat.
            if seen.contains(name) || !keep(name) {
                current = nil
            } else {
                seen.insert(name)
                current = name
            }
            return
        }
        guard current != nil, let equals = line.firstIndex(of: UInt8(ascii: "=")) else { return }
        var keyEnd = equals
        while keyEnd > first && (line[keyEnd - 1] == Self.space || line[keyEnd - 1] == Self.tab) { keyEnd -= 1 }
        let key = UnsafeBufferPointer(rebasing: line[first..<keyEnd])
        guard !key.isEmpty, Self.isValidKey(key) else { return }
        var valueStart = equals + 1, valueEnd = line.count
        while valueStart < valueEnd && (line[valueStart] == Self.space || line[valueStart] == Self.tab) { valueStart += 1 }
        while valueEnd > valueStart && (line[valueEnd - 1] == Self.space || line[valueEnd - 1] == Self.tab) { valueEnd -= 1 }
        let keyString = String(decoding: key, as: UTF8.self)
        // The first of a repeated key wins (lookups return the first), so a repeat is simply kept.
        entries.entries.append(
            (keyString, String(decoding: UnsafeBufferPointer(rebasing: line[valueStart..<valueEnd]), as: UTF8.self)))
    }

    /// The raw value of `key` in `group`.
    func value(_ key: String, in group: String) -> String? { groups[group]?[key] }

    /// Keys are `[A-Za-z0-9-]` (GTK's `settings.ini` also uses `_`), optionally followed by a
    /// `[locale]` of printable ASCII.
    private static func isValidKey(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        var inLocale = false
        var sawLocaleEnd = false
        for byte in key {
            if sawLocaleEnd { return false }
            if inLocale {
                if byte == UInt8(ascii: "]") { sawLocaleEnd = true } else if byte < 0x21 || byte > 0x7E { return false }
                continue
            }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                continue
            case UInt8(ascii: "["): inLocale = true
            default: return false
            }
        }
        return !inLocale || sawLocaleEnd
    }

    /// A string value with the spec's escapes applied: `\s` space, `\n`, `\t`, `\r`, `\\`. An unknown
    /// escape is kept as written.
    static func unescaped(_ raw: String) -> String {
        guard raw.contains("\\") else { return raw }
        var result = ""
        var escaping = false
        for character in raw {
            if escaping {
                switch character {
                case "s": result.append(" ")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "\\": result.append("\\")
                default: result.append("\\"); result.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        if escaping { result.append("\\") }
        return result
    }

    /// A list value split at `separator` (`;` in desktop files, `,` in `index.theme`); an escaped
    /// separator (`\;`) stays in its item; items are unescaped and empty items dropped.
    static func list(_ raw: String, separator: Character) -> [String] {
        if !raw.utf8.contains(UInt8(ascii: "\\")) {
            return raw.split(separator: separator).map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
        }
        var items: [String] = []
        var item = ""
        var escaping = false
        for character in raw {
            if escaping {
                if character != separator { item.append("\\") }
                item.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == separator {
                items.append(item)
                item = ""
            } else {
                item.append(character)
            }
        }
        if escaping { item.append("\\") }
        items.append(item)
        return items.map { unescaped($0).trimmingSpaces() }.filter { !$0.isEmpty }
    }

    /// The spec's boolean: `true` or `false` (and `1`/`0`, which old files still use).
    static func boolean(_ raw: String?) -> Bool? {
        switch raw {
        case "true", "1": return true
        case "false", "0": return false
        default: return nil
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
