/// Executables that run other programs: an interpreter, a language runtime, a shell, a shared
/// Electron or Wine. Their file name says how an app runs, never which app it is — every Python
/// player would otherwise be one app named "Python (v3.11)", opted out all together — so the
/// resolver never takes one as a clue to the app (docs/listening.md, "Which app it is").
///
/// The list is what Debian ships as such (`/usr/bin` of `python3.11`, `perl`, `ruby3.1`, `nodejs`,
/// `gjs-console`, the JVM's `java`, `mono-sgen`, the shells, `lua5.4`, `php8.2`, `tclsh8.6`,
/// `guile-3.0`, `qmlscene`, `wine64-preloader` …) and the runtimes other distributions name the
/// same way (`electron25`, `pypy3`, `dotnet`).
package enum Interpreter {
    /// Runtime names without their version: `python3.11`, `python3` and `python` are all `python`.
    static let names: Set<String> = [
        "python", "pypy", "perl", "ruby", "node", "nodejs", "gjs", "gjs-console", "seed",
        "java", "javaw", "mono", "mono-sgen", "dotnet",
        "sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "tcsh", "csh", "busybox",
        "lua", "luajit", "php", "tclsh", "wish", "guile", "r", "rscript", "osascript",
        "qml", "qmlscene", "electron", "wine", "wine64", "wine-preloader", "wine64-preloader",
        "ld-linux-x86-64.so", "ld-linux-aarch64.so", "ld-linux.so", "ld.so",
    ]

    /// Whether `executable` (a file name, as `/proc/PID/exe` ends) is an interpreter or runtime.
    /// Versions are ignored wherever the name carries one: `python3.11`, `perl5.36.0`, `lua5.4`,
    /// `guile-3.0`, `electron25`, `ld-linux-x86-64.so.2`.
    package static func isInterpreter(_ executable: String) -> Bool {
        names.contains(withoutVersion(executable.lowercased()))
    }

    /// `python3.11` → `python`; `guile-3.0` → `guile`; `ld-linux-x86-64.so.2` → `ld-linux-x86-64.so`;
    /// `x86_64` stays: only a trailing run of digits and dots (and the `-` or `_` before it) goes.
    private static func withoutVersion(_ name: String) -> String {
        var base = Substring(name)
        while let last = base.last, last.isASCII, last.isNumber || last == "." { base.removeLast() }
        if base.count < name.count, let last = base.last, last == "-" || last == "_" { base.removeLast() }
        return base.isEmpty ? name : String(base)
    }
}
