/// A desktop file's `Exec` line made into the arguments that start the app with a URL, as the
/// Desktop Entry Specification says and GIO does for a URL handler (issue 35): the line is split
/// into arguments — double quotes group, a backslash inside them escapes `"`, `` ` ``, `$` and
/// `\` — and its field codes are expanded: `%u` and `%U` to the URL (inside a larger argument
/// too), `%i` to `--icon ICON`, `%c` to the app's name, `%k` to the desktop file, `%%` to `%`;
/// the deprecated codes go. The arguments are given to the program as they are: no shell ever
/// reads them. Pure.
package enum DesktopExec {
    package enum Problem: Error, Equatable, CustomStringConvertible {
        case empty
        case unbalancedQuote
        case takesNoURL
        case fieldCode(Character)

        package var description: String {
            switch self {
            case .empty: "its Exec line names no program"
            case .unbalancedQuote: "its Exec line has a quote that is not closed"
            case .takesNoURL: "its Exec line takes no URL (%u or %U)"
            case .fieldCode(let code): "its Exec line has the field code %\(code), which is not one the specification defines"
            }
        }
    }

    /// The arguments that start the app with `url`, the program first.
    package static func arguments(_ exec: String, url: String, name: String?, icon: String?, desktopFile: String?) throws(Problem) -> [String] {
        var arguments: [String] = []
        var takesURL = false
        for word in try words(of: exec) {
            var expanded = ""
            var iterator = word.makeIterator()
            var standsAlone: [String]?
            while let character = iterator.next() {
                guard character == "%" else { expanded.append(character); continue }
                guard let code = iterator.next() else { throw .fieldCode(" ") }
                switch code {
                case "u", "U":
                    expanded += url
                    takesURL = true
                case "i": if word == "%i" { standsAlone = icon.map { ["--icon", $0] } ?? [] }
                case "c": expanded += name ?? ""
                case "k": expanded += desktopFile ?? ""
                case "%": expanded.append("%")
                case "f", "F", "d", "D", "n", "N", "v", "m": break
                default: throw .fieldCode(code)
                }
            }
            if let standsAlone {
                arguments += standsAlone
            } else if !(expanded.isEmpty && word.contains("%")) {
                arguments.append(expanded)
            }
        }
        guard !arguments.isEmpty, !arguments[0].isEmpty else { throw .empty }
        guard takesURL else { throw .takesNoURL }
        return arguments
    }

    /// The line split into its words, quotes removed, field codes left in place.
    static func words(of exec: String) throws(Problem) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quoted = false
        var characters = exec.makeIterator()
        while let character = characters.next() {
            if quoted {
                switch character {
                case "\"": quoted = false
                case "\\":
                    guard let next = characters.next() else { throw .unbalancedQuote }
                    if !"\"`$\\".contains(next) { current.append("\\") }
                    current.append(next)
                default: current.append(character)
                }
            } else if character == " " || character == "\t" || character == "\n" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                inWord = true
                if character == "\"" { quoted = true } else { current.append(character) }
            }
        }
        guard !quoted else { throw .unbalancedQuote }
        if inWord { words.append(current) }
        return words
    }
}
