internal import CIntl
internal import Glibc

/// The program's words in the person's language, through glibc's gettext in the text domain
/// `media-broker`. Each executable calls ``setUp()`` once, first thing; from then on
/// ``localized(_:_:)`` and its kin look the English words up in the catalog the locale picks
/// (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) and fall back to the English itself.
///
/// Lookups go through `dgettext`/`dngettext` with the domain named, never `gettext`, so that GTK's
/// and libadwaita's own words stay in their own domains.
public enum Localization {
    /// The text domain: the catalogs are `<locale dir>/LL/LC_MESSAGES/media-broker.mo`.
    public static let domain = "media-broker"
    /// Overrides where the catalogs are read from: tests point it at catalogs they compile.
    public static let directoryVariable = "MEDIA_BROKER_LOCALEDIR"

    /// Takes the locale from the environment (`setlocale(LC_ALL, "")`), so times and words follow
    /// it, and binds the domain to its catalogs, read as UTF-8 whatever the locale's charset.
    ///
    /// The corresponding C calls are `setlocale`, `bindtextdomain` and `bind_textdomain_codeset`.
    public static func setUp() {
        _ = setlocale(LC_ALL, "")
        let override = getenv(directoryVariable).map { String(cString: $0) }
        let environment = override.map { [directoryVariable: $0] } ?? [:]
        _ = bindtextdomain(domain, directory(environment: environment, executable: executablePath()))
        _ = bind_textdomain_codeset(domain, "UTF-8")
    }

    /// `$MEDIA_BROKER_LOCALEDIR` when set, else `share/locale` beside the `bin/` that holds
    /// `executable` — `/usr/bin/broker-ctl` reads `/usr/share/locale`, `/usr/local/bin/…`
    /// `/usr/local/share/locale` — so an installed program finds its catalogs under any prefix.
    public static func directory(environment: [String: String], executable: String?) -> String {
        if let override = environment[directoryVariable], !override.isEmpty { return override }
        guard let executable, let slash = executable.lastIndex(of: "/") else { return "/usr/share/locale" }
        let bin = executable[..<slash]
        let prefix = bin.lastIndex(of: "/").map { bin[..<$0] } ?? ""
        return prefix + "/share/locale"
    }

    /// The running program's file, from `/proc/self/exe`; `nil` where `/proc` is not mounted.
    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// `english` in the person's language, with each `{name}` replaced by `values["name"]` after the
/// lookup, so a translation may put the values in any order.
///
/// `english` is a literal (a `StaticString` takes no interpolation): `xgettext` finds it with
/// `--keyword=localized:1` (`make pot`). The corresponding C call is `dgettext`.
public func localized(_ english: StaticString, _ values: KeyValuePairs<String, String> = [:]) -> String {
    let translated = english.description.withCString { String(cString: dgettext(Localization.domain, $0)) }
    return Placeholders.filled(translated, values)
}

/// `english` as it reads in `context` — for words English uses in two senses, as "Open" a verb
/// and an adjective. `xgettext` finds it with `--keyword=localizedInContext:1c,2`. gettext keeps a
/// context as `context` + EOT + the words, which is what this looks up.
public func localizedInContext(_ context: StaticString, _ english: StaticString, _ values: KeyValuePairs<String, String> = [:]) -> String {
    let key = "\(context)\u{4}\(english)"
    let translated = key.withCString { String(cString: dgettext(Localization.domain, $0)) }
    return Placeholders.filled(translated == key ? english.description : translated, values)
}

/// The singular or the plural form for `count` — as many forms as the language has, per the
/// catalog's `Plural-Forms` — with `{count}` and the other `{name}`s filled in.
/// `xgettext` finds it with `--keyword=localizedPlural:1,2`. The corresponding C call is `dngettext`.
public func localizedPlural(_ singular: StaticString, _ plural: StaticString, count: Int,
                            _ values: KeyValuePairs<String, String> = [:]) -> String {
    let form = singular.description.withCString { one in
        plural.description.withCString { many in
            String(cString: dngettext(Localization.domain, one, many, UInt(clamping: count.magnitude)))
        }
    }
    return Placeholders.filled(form, [("count", String(count))] + values.map { ($0.key, $0.value) })
}
