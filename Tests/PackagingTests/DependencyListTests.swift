// Issue 31: the README's test command passes on a fresh machine only if scripts/lib/deps.sh
// installs everything the tests, fixtures, scripts and build use. A package installed here by hand
// would hide a gap, so these tests ask dpkg which package each used program and module belongs to,
// and whether deps.sh's lists (or what they depend on, or what every Debian system has) bring it —
// whatever happens to be installed on this machine.

import Foundation
import Testing
import TestSupport

@Suite("deps.sh names every package the tests, fixtures, scripts and build use")
struct DependencyListTests {
    /// deps.sh's lists, read by bash itself.
    static func lists() throws -> [String: [String]] {
        let script = "source scripts/lib/deps.sh; for v in $(compgen -A arrayvar MB_); do declare -n a=$v; printf '%s %s\\n' \"$v\" \"${a[*]}\"; done"
        let run = try ChildProcess.run("bash", arguments: ["-c", script], workingDirectory: SourceTree.root)
        guard run.status == .exited(0) else { throw TestSupportError("cannot read deps.sh: \(run.standardError)") }
        var lists: [String: [String]] = [:]
        for line in run.standardOutput.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if let name = words.first { lists[name] = Array(words.dropFirst()) }
        }
        return lists
    }

    /// Where Debian's python3 finds each of `modules`: a file or folder, "stdlib" for its own
    /// library, or nothing when it cannot import it.
    static func pythonLocations(_ modules: [String]) throws -> [String: String] {
        let script = """
            import importlib.util, sys
            for name in sys.argv[1:]:
                if name in sys.stdlib_module_names:
                    print(name, "stdlib"); continue
                spec = importlib.util.find_spec(name)
                where = spec and (spec.origin if spec.origin not in (None, "namespace") else list(spec.submodule_search_locations)[0])
                print(name, where or "")
            """
        let run = try ChildProcess.run("/usr/bin/python3", arguments: ["-c", script] + modules)
        guard run.status == .exited(0) else { throw TestSupportError("python3 could not look the modules up: \(run.standardError)") }
        var found: [String: String] = [:]
        for line in run.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { found[parts[0]] = parts[1] }
        }
        return found
    }

    /// The file dpkg should own for a listed program: its path, or where it is found on the
    /// system's program folders.
    static func location(ofProgram name: String) -> String? {
        if name.hasPrefix("/") { return FileManager.default.fileExists(atPath: name) ? name : nil }
        return UsedPrograms.systemFolders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What these tests ask of the tree and of dpkg, asked once: reading every package and asking
    /// dpkg about every file takes seconds, and the tests only vary the lists.
    struct Facts: Sendable {
        let used: UsedPrograms
        let needs: NeededPrograms
        let lists: [String: [String]]
        let installed: InstalledPackages
        let base: Set<String>
        /// Where python3 finds each module used or listed ("stdlib" for its own library).
        let modules: [String: String]
        /// The package owning each listed program's or module's file.
        let owners: [String: String]

        init() throws {
            used = try UsedPrograms(root: SourceTree.root)
            needs = try NeededPrograms.inSourceTree()
            lists = try DependencyListTests.lists()
            installed = try InstalledPackages()
            base = installed.base
            let listedModules = needs.entries.filter { $0.kind == .python }.map(\.name)
            let modules = try DependencyListTests.pythonLocations(Array(Set(used.modules.keys).union(listedModules)).sorted())
            self.modules = modules
            owners = try InstalledPackages.owners(of: needs.entries.compactMap { DependencyListTests.path(of: $0, modules: modules) })
        }
    }

    /// Gathered on a thread of its own: the blocking calls to dpkg take seconds, and on the test
    /// pool's threads they would hold up every other test's waiting.
    static let facts = Task {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Facts, any Error>) in
            Thread { done.resume(with: Result { try Facts() }) }.start()
        }
    }

    /// The file of a listed program or module on this system, if it is installed.
    static func path(of entry: NeededPrograms.Entry, modules: [String: String]) -> String? {
        entry.kind == .program ? location(ofProgram: entry.name) : modules[entry.name].flatMap { $0.isEmpty || $0 == "stdlib" ? nil : $0 }
    }

    /// Everything wrong with `needs` against the code, deps.sh's `lists` and this system.
    static func problems(needs: NeededPrograms, lists: [String: [String]], facts: Facts) throws -> [String] {
        var problems: [String] = []
        let used = facts.used
        let stdlib = Set(facts.modules.filter { $0.value == "stdlib" }.keys)
        let usedEntries: [(NeededPrograms.Kind, String, Set<String>)] =
            used.programs.map { (.program, ($0.key as NSString).lastPathComponent, $0.value) }
            + used.modules.filter { !stdlib.contains($0.key) }.map { (.python, $0.key, $0.value) }
        var usedBy: [String: Set<String>] = [:]
        for (kind, name, files) in usedEntries { usedBy[kind.rawValue + " " + name, default: []].formUnion(files) }

        let listed = Dictionary(needs.entries.map { ($0.kind.rawValue + " " + $0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (key, files) in usedBy.sorted(by: { $0.key < $1.key }) where listed[key] == nil {
            problems.append("\(key) is used (\(files.sorted().joined(separator: ", "))) but not listed in \(NeededPrograms.relativePath)")
        }
        for entry in needs.entries where usedBy[entry.kind.rawValue + " " + entry.name] == nil {
            problems.append("\(entry.kind.rawValue) \(entry.name) is listed in \(NeededPrograms.relativePath) but nothing uses it")
        }

        var closures: [UsedPrograms.Scope: Set<String>] = [:]
        for scope in UsedPrograms.Scope.allCases { closures[scope] = facts.installed.closure(of: scope.lists.flatMap { lists[$0] ?? [] }) }
        for entry in needs.entries {
            guard let path = path(of: entry, modules: facts.modules) else {
                problems.append("\(entry.kind.rawValue) \(entry.name) is not installed: does deps.sh install \(entry.package)?")
                continue
            }
            guard let owner = try facts.owners[path] ?? InstalledPackages.owners(of: [path])[path] else {
                problems.append("\(entry.kind.rawValue) \(entry.name) (\(path)) belongs to no Debian package")
                continue
            }
            if owner != entry.package {
                problems.append("\(entry.kind.rawValue) \(entry.name) is listed with \(entry.package), but \(path) belongs to \(owner)")
            }
            let scopes = Set((usedBy[entry.kind.rawValue + " " + entry.name] ?? []).map(UsedPrograms.Scope.of))
            for scope in scopes.sorted(by: { $0.rawValue < $1.rawValue }) where !facts.base.contains(owner) && closures[scope]?.contains(owner) != true {
                problems.append("\(entry.kind.rawValue) \(entry.name) needs \(owner), which no list of \(scope.lists.joined(separator: ", ")) "
                    + "in scripts/lib/deps.sh brings (nor what they depend on, nor what every Debian system has)")
            }
        }
        return problems
    }

    @Test("every program and Python module the code uses is listed with its package, which deps.sh brings where it is used")
    func theListsAreComplete() async throws {
        let facts = try await Self.facts.value
        let problems = try Self.problems(needs: facts.needs, lists: facts.lists, facts: facts)
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
    }

    @Test("taking python3-pyatspi or xdotool out of deps.sh fails the check, though both stay installed here", arguments: [
        ("python3-pyatspi", "python pyatspi"), ("xdotool", "program xdotool"),
    ])
    func aMissingPackageIsFound(package: String, entry: String) async throws {
        let facts = try await Self.facts.value
        var lists = facts.lists
        for name in lists.keys { lists[name]?.removeAll { $0 == package } }
        let problems = try Self.problems(needs: facts.needs, lists: lists, facts: facts)
        #expect(problems.contains { $0.hasPrefix(entry + " needs " + package) }, "\(problems)")
    }

    @Test("a program or module used but not listed, or listed but unused, is found")
    func theListMatchesTheCode() async throws {
        let facts = try await Self.facts.value
        let fewer = facts.needs.entries.filter { $0.name != "xdotool" }.map { "\($0.kind.rawValue)\t\($0.name)\t\($0.package)" }
        let text = (fewer + ["program\tcowsay\tcowsay"]).joined(separator: "\n")
        let problems = try Self.problems(needs: try NeededPrograms(text: text), lists: facts.lists, facts: facts)
        #expect(problems.contains { $0.hasPrefix("program xdotool is used") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("program cowsay is listed") }, "\(problems)")
    }

    @Test("the reading finds commands the ways this tree writes them")
    func readingCommands() {
        let shell = """
            set -euo pipefail
            mb_log() { printf '%s\\n' "$*"; }
            x=$(dpkg-query -W foo | sed 's/a/b/') # a comment naming cowsay
            if ! command -v swift >/dev/null; then exec runuser -u me -- env A=1 timeout 5 xvfb-run mpv --no-video; fi
            cat <<'EOF'
            heredoc cowsay
            EOF
            """
        #expect(UsedPrograms.commandWords(inShell: shell) == ["set", "mb_log", "printf", "dpkg-query", "sed", "command", "exec", "runuser", "env", "timeout", "xvfb-run", "mpv", "cat"])
        #expect(UsedPrograms.functionNames(inShell: shell) == ["mb_log"])
        #expect(UsedPrograms.programs(inSwift: "ChildProcess.run(\n  \"xdotool\", arguments: []); let p = \"/usr/libexec/at-spi-bus-launcher\"")
            == ["xdotool", "/usr/libexec/at-spi-bus-launcher"])
        #expect(UsedPrograms.imports(inPython: "import sys\nfrom gi.repository import GLib\nimport dbus.service\n") == ["sys", "gi", "dbus"])
        #expect(UsedPrograms.programs(inPython: "subprocess.run([\"xdotool\", \"key\"])") == ["xdotool"])
    }
}
