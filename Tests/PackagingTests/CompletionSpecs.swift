// What the completion scripts in completions/ declare, read back for the drift tests, and what
// broker-ctl's parser declares, in the same shape.

import TestSupport
@testable import broker_ctl

/// One subcommand as a completion script knows it: its option names (long, with dashes), which of
/// them take a value, and its positional arguments.
struct CompletionEntry: Equatable, CustomStringConvertible {
    var name: String
    var valueOptions: Set<String> = []
    var flags: Set<String> = []
    /// `SUBCOMMAND`, or `[SUBCOMMAND]` when optional.
    var positionals: [String] = []

    var description: String {
        "\(name): options taking a value \(valueOptions.sorted()), flags \(flags.sorted()), arguments \(positionals)"
    }

    /// What the parser declares for `subcommand` (`--help`, which every subcommand takes, left out).
    init(_ subcommand: any Subcommand.Type) {
        name = subcommand.name
        for option in subcommand.options {
            if option.takesValue { valueOptions.insert(option.longSpelling) } else { flags.insert(option.longSpelling) }
        }
        positionals = subcommand.arguments.map { $0.isOptional ? "[\($0.name)]" : $0.name }
    }

    init(name: String) { self.name = name }

    /// The line `_broker_ctl_spec` in the bash script should hold for `subcommand`.
    static func bashLine(for subcommand: any Subcommand.Type) -> String {
        let options = subcommand.options.map { option in
            option.longSpelling + (option.valuePlaceholder.map { "=\($0)" } ?? "")
        }
        let arguments = subcommand.arguments.map { $0.isOptional ? "[\($0.name)]" : $0.name }
        return ([subcommand.name] + options + arguments).joined(separator: " ")
    }

    /// The `_arguments` specs the zsh script should hold for `subcommand`.
    static func zshSpecs(for subcommand: any Subcommand.Type) -> String {
        let options = subcommand.options.map { option in
            if let placeholder = option.valuePlaceholder {
                "'\(option.longSpelling)=[\(option.help.lowercasedFirst)]:\(placeholder): '"
            } else {
                "'\(option.longSpelling)[\(option.help.lowercasedFirst)]'"
            }
        }
        let arguments = subcommand.arguments.enumerated().map { index, argument in
            "'\(index + 1):\(argument.isOptional ? ":" : "")\(argument.name): '"
        }
        return (["(\(subcommand.name))", "  _arguments -s \\", "    '(- *)'{-h,--help}'[show help]' \\"]
            + (options + arguments).map { "    \($0) \\" } + ["    && ret=0", "  ;;"]).joined(separator: "\n")
    }
}

extension String {
    /// `Show at most N.` → `show at most N`, as zsh descriptions read.
    fileprivate var lowercasedFirst: String {
        let text = hasSuffix(".") ? dropLast() : self[...]
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}

enum CompletionScripts {
    static let bash = "completions/broker-ctl.bash"
    static let zsh = "completions/_broker-ctl"

    /// The lines of `_broker_ctl_spec`'s here-document: `recent --limit=N … --json`.
    static func bashEntries() throws -> [CompletionEntry] {
        let script = try SourceTree.read(bash)
        guard let start = script.range(of: "_broker_ctl_spec() {\n    cat <<'EOF'\n"),
            let end = script.range(of: "\nEOF\n", range: start.upperBound..<script.endIndex)
        else {
            throw SourceTreeError("\(bash): no `_broker_ctl_spec() { cat <<'EOF' … EOF` block to read the subcommands from")
        }
        return script[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
            let words = line.split(separator: " ").map(String.init)
            var entry = CompletionEntry(name: words[0])
            for word in words.dropFirst() {
                if let equals = word.firstIndex(of: "="), word.hasPrefix("-") {
                    entry.valueOptions.insert(String(word[..<equals]))
                } else if word.hasPrefix("-") {
                    entry.flags.insert(word)
                } else {
                    entry.positionals.append(word)
                }
            }
            return entry
        }
    }

    /// The subcommands listed in `_broker-ctl_subcommands` (`'recent:…'`) and, for each branch
    /// `(name)` of the `case $words[1]`, the options of its `_arguments` (`'--limit=[…]` takes a
    /// value, `'--json[…]` does not). -h/--help is left out; positionals are not compared.
    static func zshEntries() throws -> (listed: [String], branches: [CompletionEntry]) {
        let script = try SourceTree.read(zsh)
        guard let listStart = script.range(of: "local -a subcommands=(\n"),
            let listEnd = script.range(of: "\n  )\n", range: listStart.upperBound..<script.endIndex)
        else { throw SourceTreeError("\(zsh): no `local -a subcommands=( … )` list") }
        let listed = script[listStart.upperBound..<listEnd.lowerBound].split(separator: "\n").compactMap { line in
            line.trimming(" '").split(separator: ":").first.map(String.init)
        }
        guard let caseStart = script.range(of: "case $words[1] in\n"),
            let caseEnd = script.range(of: "\n      esac", range: caseStart.upperBound..<script.endIndex)
        else { throw SourceTreeError("\(zsh): no `case $words[1] in … esac` with a branch per subcommand") }
        var branches: [CompletionEntry] = []
        for line in script[caseStart.upperBound..<caseEnd.lowerBound].split(separator: "\n") {
            let trimmed = line.trimming(" ")
            if trimmed.hasPrefix("("), trimmed.hasSuffix(")"), !trimmed.contains(" ") {
                branches.append(CompletionEntry(name: String(trimmed.dropFirst().dropLast())))
            } else if trimmed.hasPrefix("'--"), !branches.isEmpty {
                let spec = trimmed.dropFirst()
                let name = String(spec.prefix { $0 != "=" && $0 != "[" && $0 != "'" })
                if spec.dropFirst(name.count).hasPrefix("=") {
                    branches[branches.count - 1].valueOptions.insert(name)
                } else {
                    branches[branches.count - 1].flags.insert(name)
                }
            }
        }
        return (listed, branches)
    }
}
