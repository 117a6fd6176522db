import Localization

/// What the scanner found on a subcommand's command line, before the subcommand checks the values.
struct ParsedArguments: Sendable, Equatable {
    /// The value of each option given, by long name; a repeated option keeps its last value, as
    /// swift-argument-parser does, so scripts can override an earlier setting.
    var values: [String: String] = [:]
    /// Every value of each option, in order, for options that may be repeated (`--artist A --artist B`).
    var allValues: [String: [String]] = [:]
    /// Long names of the flags given.
    var flags: Set<String> = []
    var positionals: [String] = []
    /// `-h` or `--help` appeared: the subcommand's help is shown whatever else is wrong.
    var wantsHelp = false

    func value(of option: OptionSpec) -> String? {
        values[option.name]
    }

    /// Every value given for a repeatable option, in order; empty when it was not given.
    func values(of option: OptionSpec) -> [String] {
        allValues[option.name] ?? []
    }

    func contains(_ flag: OptionSpec) -> Bool {
        flags.contains(flag.name)
    }
}

/// Splits a subcommand's words into options and positionals. Accepts `--name value`,
/// `--name=value`, `-x value` and flags; `--` ends options.
enum ArgumentScanner {
    static func scan(
        _ words: [String], options: [OptionSpec], arguments: [ArgumentSpec]
    ) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        // Help wins over any other mistake on the line: someone asking for help may not yet
        // know how to write the rest.
        if words.prefix(while: { $0 != "--" }).contains(where: OptionSpec.help.spellings.contains) {
            parsed.wantsHelp = true
            return parsed
        }

        var remaining = words[...]
        while let word = remaining.popFirst() {
            if word == "--" {
                parsed.positionals.append(contentsOf: remaining)
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                parsed.positionals.append(word)
                continue
            }
            let (spelling, inlineValue) = split(word)
            guard let option = options.first(where: { $0.spellings.contains(spelling) }) else {
                throw UsageError(localized("unknown option '{option}'", ["option": spelling]))
            }
            guard option.takesValue else {
                if inlineValue != nil { throw UsageError(localized("'{option}' does not take a value", ["option": option.longSpelling])) }
                parsed.flags.insert(option.name)
                continue
            }
            if let inlineValue {
                parsed.set(option, inlineValue)
            } else if let next = remaining.first, !looksLikeOption(next) {
                parsed.set(option, next)
                remaining.removeFirst()
            } else {
                // TRANSLATORS: {option} {value} is the option and its metavariable, as in '--limit N'.
                throw UsageError(localized("missing value for '{option} {value}'", ["option": option.longSpelling, "value": option.valuePlaceholder ?? ""]))
            }
        }

        if parsed.positionals.count > arguments.count {
            throw UsageError(localized("unexpected argument '{argument}'", ["argument": parsed.positionals[arguments.count]]))
        }
        if let missing = arguments.dropFirst(parsed.positionals.count).first(where: { !$0.isOptional }) {
            // TRANSLATORS: {argument} is the name of a required argument, in capitals, as in 'missing APP'.
            throw UsageError(localized("missing {argument}", ["argument": missing.name]))
        }
        return parsed
    }

    /// `--limit=5` → (`--limit`, `5`); only long options take an inline value.
    private static func split(_ word: String) -> (spelling: String, inlineValue: String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// A following word that is itself an option means the value was forgotten, not that it is
    /// `--json`; a lone `-` or a negative number is still a value.
    private static func looksLikeOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        return Int(word) == nil
    }
}

extension ParsedArguments {
    fileprivate mutating func set(_ option: OptionSpec, _ value: String) {
        values[option.name] = value
        allValues[option.name, default: []].append(value)
    }
}
