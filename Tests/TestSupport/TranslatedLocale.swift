import Foundation

/// A language for the programs under test without touching the system: the project's catalog
/// compiled from po/LL.po (msgfmt) and the locale's data compiled from Debian's `locales` sources
/// (localedef), both into a temporary folder, and the environment that points the programs there
/// (`MEDIA_BROKER_LOCALEDIR`, glibc's `LOCPATH`). GTK's own catalogs stay the system's.
public final class TranslatedLocale: Sendable {
    public let folder: TemporaryDirectory
    /// `LANGUAGE`, `LC_ALL`, `LOCPATH` and `MEDIA_BROKER_LOCALEDIR` for a child's environment.
    public let environment: [String: String]

    /// - Parameters:
    ///   - language: the catalog, `de` for po/de.po; `nil` for none (a language MediaBroker has no
    ///     catalog for, whose words stay English while GTK speaks it).
    ///   - locale: the locale's source in /usr/share/i18n/locales, `de_DE`; the locale is its UTF-8 one.
    ///   - messages: `LANGUAGE`, the language's code by default.
    public init(language: String?, locale: String, messages: String? = nil) throws {
        folder = try TemporaryDirectory(prefix: "locale-\(locale)")
        if let language {
            let catalogs = folder.appending("catalogs/\(language)/LC_MESSAGES")
            try FileManager.default.createDirectory(atPath: catalogs, withIntermediateDirectories: true)
            let compiled = try ChildProcess.run("msgfmt", arguments: ["--check", "-o", catalogs + "/media-broker.mo", SourceTree.path("po/\(language).po")])
            guard compiled.status == .exited(0) else { throw TestSupportError("msgfmt po/\(language).po: \(compiled.standardError)") }
        }
        let name = locale + ".UTF-8"
        try FileManager.default.createDirectory(atPath: folder.appending("locales"), withIntermediateDirectories: true)
        let defined = try ChildProcess.run("localedef", arguments: ["-i", locale, "-f", "UTF-8", folder.appending("locales/" + name)],
                                           timeout: .seconds(60))
        guard defined.status == .exited(0) else { throw TestSupportError("localedef \(name): \(defined.standardError)") }
        environment = [
            "LANGUAGE": messages ?? language ?? "", "LC_ALL": name, "LOCPATH": folder.appending("locales"),
            "MEDIA_BROKER_LOCALEDIR": folder.appending("catalogs"),
        ]
    }
}
