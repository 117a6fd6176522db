// What the source tree runs and imports, read from the code itself: the programs its tests,
// fixtures, scripts and Makefiles start and the Python modules its fixtures and examples import.
// A reading, not a parser: it finds what is written the ways this tree writes it (a literal path or
// name given to ChildProcess, a command word in a script, `subprocess.run(["name", …])`, `import`),
// and ChildProcess's own check catches at run time a program named any other way.

import Foundation
import TestSupport

struct UsedPrograms {
    /// Where a program or module is used, and which of deps.sh's lists must bring it there.
    enum Scope: String, CaseIterable, Sendable {
        /// scripts/test and everything it runs: the build, the tests, their fixtures, the examples.
        case test
        /// scripts/run.
        case run
        /// scripts/package-check and debian/rules.
        case package
        /// scripts/reliability.
        case reliability
        /// bench/run and its report.
        case bench

        /// The lists of scripts/lib/deps.sh that the script of this scope installs.
        var lists: [String] {
            switch self {
            case .test: ["MB_BUILD_PACKAGES", "MB_RUNTIME_PACKAGES", "MB_TEST_PACKAGES"]
            case .run: ["MB_BUILD_PACKAGES", "MB_RUNTIME_PACKAGES"]
            case .package: ["MB_BUILD_PACKAGES", "MB_RUNTIME_PACKAGES", "MB_PACKAGING_PACKAGES"]
            case .reliability: ["MB_BUILD_PACKAGES", "MB_RUNTIME_PACKAGES", "MB_TEST_PACKAGES", "MB_RELIABILITY_PACKAGES"]
            case .bench: ["MB_BUILD_PACKAGES", "MB_RUNTIME_PACKAGES", "MB_BENCH_PACKAGES"]
            }
        }

        static func of(_ file: String) -> Scope {
            switch file {
            case "scripts/run": .run
            case "scripts/package-check", "debian/rules": .package
            case "scripts/reliability": .reliability
            case _ where file.hasPrefix("bench/"): .bench
            default: .test
            }
        }
    }

    /// Each program (a file name, or an absolute path) and module found, with the files using it.
    var programs: [String: Set<String>] = [:]
    var modules: [String: Set<String>] = [:]

    static let shellFiles = [
        "scripts/test", "scripts/run", "scripts/build", "scripts/package-check", "scripts/reliability",
        "scripts/lib/bus.sh", "scripts/lib/proc.sh", "scripts/lib/deps.sh", "bench/run",
    ]
    static let makefiles = ["Makefile", "examples/c/Makefile", "debian/rules"]

    /// Reads the source tree at `root`.
    init(root: String) throws {
        let manager = FileManager.default
        func text(_ relative: String) throws -> String { try String(contentsOfFile: root + "/" + relative, encoding: .utf8) }
        func files(under folder: String, ending suffix: String) -> [String] {
            (manager.enumerator(atPath: root + "/" + folder)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(suffix) && !$0.contains("__pycache__") }.map { folder + "/" + $0 }.sorted()
        }

        let shellFunctions = try Set(Self.shellFiles.flatMap { Self.functionNames(inShell: try text($0)) })
        for file in Self.shellFiles {
            for word in Self.commandWords(inShell: try text(file)) where !shellFunctions.contains(word) { programs[word, default: []].insert(file) }
        }
        for file in Self.makefiles {
            for word in Self.commandWords(inShell: Self.recipes(inMakefile: try text(file))) { programs[word, default: []].insert(file) }
        }
        // This reading's own test holds examples of what it reads, not what the tree runs.
        for file in files(under: "Tests", ending: ".swift") where !file.hasSuffix("/DependencyListTests.swift") {
            let source = try text(file)
            for program in Self.programs(inSwift: source) { programs[program, default: []].insert(file) }
            for module in Self.imports(inPython: Self.embeddedPython(inSwift: source)) { modules[module, default: []].insert(file) }
        }
        for file in files(under: "Tests/Fixtures", ending: ".py") + files(under: "examples", ending: ".py") + files(under: "bench", ending: ".py") {
            let source = try text(file)
            for program in Self.programs(inPython: source) { programs[program, default: []].insert(file) }
            for module in Self.imports(inPython: source) { modules[module, default: []].insert(file) }
        }
        programs = programs.filter { Self.isProgram($0.key) }
    }

    // MARK: Reading

    /// Words that start a command in shell text: the first word of each simple command, and the
    /// command a wrapper (`exec`, `env`, `timeout`, `runuser -u USER --` …) runs. Heredocs and
    /// comments are skipped.
    static func commandWords(inShell text: String) -> [String] {
        var words: [String] = []
        var heredocEnd: String?
        var inArray = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if let end = heredocEnd {
                if line.trimmingCharacters(in: .whitespaces) == end { heredocEnd = nil }
                continue
            }
            // An array's words are data (deps.sh's package lists), up to its closing parenthesis.
            if inArray || line.firstMatch(of: /^\s*[A-Za-z_][A-Za-z0-9_]*\+?=\(/) != nil {
                inArray = !withoutComment(line).contains(")")
                continue
            }
            if let match = line.firstMatch(of: /<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?/) { heredocEnd = String(match.1) }
            let code = withoutExpansions(withoutComment(line))
            for segment in code.split(separator: /\|\|?|&&|;|\$\(|`|\(|\)|\{|\}|\bthen\b|\bdo\b|\belse\b/) {
                words += commandWords(inSimpleCommand: segment.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init))
            }
        }
        return words
    }

    private static let keywords: Set<String> = ["if", "elif", "while", "until", "!", "time", "in", "esac", "fi", "done", "function", "[[", "]]"]
    private static let wrappers: Set<String> = ["exec", "command", "env", "timeout", "nohup", "sudo", "runuser", "setsid", "nice", "mb_as_root", "xvfb-run", "dbus-run-session", "stdbuf"]

    private static func commandWords(inSimpleCommand tokens: [String]) -> [String] {
        var words: [String] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if token == "for" || token == "case" || token == "select" { break }  // names a variable or a value, not a command
            if keywords.contains(token) || token.firstMatch(of: /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/) != nil { continue }
            if token.hasPrefix("-") || Int(token) != nil { continue }  // a wrapper's options and numbers
            if token == "--" { continue }
            guard token.wholeMatch(of: /[a-z0-9][a-z0-9._+-]*/) != nil else { break }
            words.append(token)
            guard wrappers.contains(token) else { break }
            if token == "runuser" || token == "sudo" { index += tokens[index...].firstIndex(of: "--").map { $0 - index + 1 } ?? 0 }
            if token == "command", tokens.dropFirst(index).first == "-v" { break }  // a look-up, not a run
        }
        return words
    }

    /// Names of the shell functions `text` defines (`name() {`): not programs.
    static func functionNames(inShell text: String) -> [String] {
        text.matches(of: /(?m)^\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\(\)/).map { String($0.1) }
    }

    /// `line` without what runs no command: single-quoted text (an awk or Python program), arithmetic
    /// (`$(( … ))`, `(( … ))`) and parameter expansions (`${…}`).
    private static func withoutExpansions(_ line: String) -> String {
        line.replacing(/'[^']*'/, with: "''").replacing(/\$?\(\([^()]*(\([^()]*\)[^()]*)*\)\)/, with: "0")
            .replacing(/\$\{[^}]*\}/, with: "x")
    }

    private static func withoutComment(_ line: String) -> String {
        if let match = line.firstMatch(of: /(^|\s)#/) { return String(line[..<match.range.lowerBound]) }
        return line
    }

    /// A Makefile's recipe lines and `$(shell …)` texts, as shell text.
    static func recipes(inMakefile text: String) -> String {
        var shell: [String] = []
        for line in text.split(separator: "\n") {
            // Make's own functions and variables (`$(dir $@)`, `$(SWIFT)`) run nothing; `$(shell …)` does.
            var line = String(line)
            while let inner = line.firstMatch(of: /\$\((?!shell )[^()$]*\)/) { line.replaceSubrange(inner.range, with: "x") }
            if line.hasPrefix("\t") { shell.append(String(line.dropFirst().drop { $0 == "@" || $0 == "-" || $0 == "+" })) }
            for match in line.matches(of: /\$\(shell ([^)]*)\)/) { shell.append(String(match.1)) }
        }
        return shell.joined(separator: "\n")
    }

    /// Programs a Swift test names: the first argument of `ChildProcess.launch`/`run` when it is a
    /// literal, and every literal absolute path into the system's program folders.
    static func programs(inSwift source: String) -> [String] {
        // A link's target in a fake /proc names a program no test runs.
        let source = source.replacing(/(withDestinationPath|to|executable): "[^"]*"/, with: "")
        return source.matches(of: /ChildProcess\.(?:launch|run)\(\s*"([^"\/\\]+)"/).map { String($0.1) }
            + source.matches(of: /"((?:\/usr)?\/(?:s?bin|libexec)\/[A-Za-z0-9._+-]+)"/).map { String($0.1) }
    }

    /// Programs a Python file runs: `subprocess.run(["name", …])` and the like.
    static func programs(inPython source: String) -> [String] {
        source.matches(of: /subprocess\.\w+\(\s*\[\s*"([^"]+)"/).map { String($0.1) }
    }

    /// Top-level modules a Python text imports.
    static func imports(inPython source: String) -> [String] {
        source.matches(of: /(?m)^\s*(?:from\s+([A-Za-z_][A-Za-z0-9_]*)[A-Za-z0-9_.]*\s+import\b|import\s+([A-Za-z_][A-Za-z0-9_]*))/)
            .compactMap { match in (match.1 ?? match.2).map(String.init) }
    }

    /// Python inside a Swift test's strings: the lines of its multi-line literals that import
    /// something (a Swift `import` names a capitalised module, a Python one here a lower-case one).
    static func embeddedPython(inSwift source: String) -> String {
        source.split(separator: "\n").filter { $0.firstMatch(of: /^\s*(from\s+[a-z][A-Za-z0-9_.]*\s+import\s|import\s+[a-z][A-Za-z0-9_.]*\s*$)/) != nil }
            .joined(separator: "\n")
    }

    // MARK: Telling programs from builtins

    /// bash's builtins and keywords, which run no program even where one of the same name exists.
    static let builtins: Set<String> = [
        "[", "alias", "bg", "break", "builtin", "caller", "cd", "command", "compgen", "complete", "continue", "declare", "dirs",
        "disown", "echo", "enable", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history",
        "jobs", "kill", "let", "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly",
        "return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit",
        "umask", "unalias", "unset", "wait",
    ]

    /// Whether `word` names a program of the system (an absolute path, or a file in its program
    /// folders) that is not a bash builtin.
    static func isProgram(_ word: String) -> Bool {
        if word.hasPrefix("/") { return true }
        if builtins.contains(word) { return false }
        return systemFolders.contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + word) }
    }

    static let systemFolders = ["/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/libexec"]
}
