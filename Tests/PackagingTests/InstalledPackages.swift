// This machine's Debian packages as dpkg knows them: which package owns a file, what each
// installed package depends on, and what every Debian system has (Essential and Priority: required,
// what debootstrap's minbase installs).

import Foundation
import TestSupport

struct InstalledPackages {
    struct Package {
        var name: String
        var base: Bool
        var provides: [String]
        /// Each dependency as its alternatives (`a | b`).
        var depends: [[String]]
    }

    private(set) var packages: [String: Package] = [:]
    /// Virtual package → the installed packages providing it.
    private var providers: [String: [String]] = [:]

    init() throws {
        let format = "${db:Status-Abbrev}\t${Package}\t${Essential}\t${Priority}\t${Provides}\t${Pre-Depends}, ${Depends}\n"
        let query = try ChildProcess.run("dpkg-query", arguments: ["-W", "-f=" + format], timeout: .seconds(60))
        guard query.status == .exited(0) else { throw TestSupportError("dpkg-query failed: \(query.standardError)") }
        for line in query.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 6, fields[0].hasPrefix("ii") else { continue }
            let package = Package(
                name: fields[1], base: fields[2] == "yes" || fields[3] == "required",
                provides: Self.names(fields[4]).flatMap { $0 },
                depends: Self.names(fields[5]))
            packages[package.name] = package
            for virtual in package.provides { providers[virtual, default: []].append(package.name) }
        }
    }

    /// `a (>= 1), b:any | c` → `[["a"], ["b", "c"]]`.
    private static func names(_ field: String) -> [[String]] {
        field.split(separator: ",").map { group in
            group.split(separator: "|").compactMap { alternative in
                let name = alternative.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
                let bare = name.split(separator: ":").first.map(String.init) ?? ""
                return bare.isEmpty ? nil : bare
            }
        }.filter { !$0.isEmpty }
    }

    /// The installed package that satisfies `name`: itself, or one providing it.
    private func installed(_ name: String) -> String? {
        packages[name] != nil ? name : providers[name]?.first
    }

    /// `roots` and everything they depend on, as installed here (of alternatives, those installed).
    func closure(of roots: [String]) -> Set<String> {
        var seen: Set<String> = []
        var queue = roots.compactMap { installed($0) }
        while let name = queue.popLast() {
            guard seen.insert(name).inserted, let package = packages[name] else { continue }
            for group in package.depends {
                queue += group.compactMap { installed($0) }
            }
        }
        return seen
    }

    /// What every Debian system has: the Essential and required packages and what they depend on.
    var base: Set<String> { closure(of: packages.values.filter(\.base).map(\.name)) }

    /// The package that installed each of `paths`, trying for a path dpkg does not know the other
    /// side of the merged /usr (`/bin` for `/usr/bin`), then the path with its links resolved (an
    /// alternative such as `awk`); a path no package installed has no entry.
    static func owners(of paths: [String]) throws -> [String: String] {
        func candidates(_ path: String) -> [String] {
            let other = path.hasPrefix("/usr/") ? String(path.dropFirst(4)) : "/usr" + path
            return [path, other, URL(fileURLWithPath: path).resolvingSymlinksInPath().path]
        }
        var owners: [String: String] = [:]
        for round in 0..<3 {
            let asked = Dictionary(paths.filter { owners[$0] == nil }.map { (candidates($0)[round], $0) }, uniquingKeysWith: { first, _ in first })
            guard !asked.isEmpty else { break }
            let search = try ChildProcess.run("dpkg", arguments: ["-S"] + asked.keys.sorted(), timeout: .seconds(60))
            for line in search.standardOutput.split(separator: "\n") where !line.hasPrefix("diversion") {
                guard let separator = line.range(of: ": /") else { continue }
                let file = String(line[line.index(after: separator.lowerBound)...]).trimmingCharacters(in: .whitespaces)
                guard let path = asked[file], let first = line[..<separator.lowerBound].split(separator: ",").first else { continue }
                owners[path] = first.trimmingCharacters(in: .whitespaces).split(separator: ":").first.map(String.init)
            }
        }
        return owners
    }
}
