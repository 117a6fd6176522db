/// The user's message locale as the Desktop Entry spec uses it to pick `Name[…]`.
///
/// Taken from `LC_ALL`, then `LC_MESSAGES`, then `LANG` — the first that is set and not empty, as
/// POSIX orders them (`LANGUAGE`, a GNU extension, is not consulted). `C` and `POSIX` mean no
/// translation.
struct DesktopLocale: Equatable, Sendable {
    var language: String
    var country: String?
    var modifier: String?

    /// Parses `lang_COUNTRY.ENCODING@MODIFIER` (encoding ignored, as the spec says); nil for `C`,
    /// `POSIX` or an empty value.
    init?(_ value: String) {
        var rest = Substring(value)
        var modifier: Substring?
        if let at = rest.firstIndex(of: "@") {
            modifier = rest[rest.index(after: at)...]
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        var country: Substring?
        if let underscore = rest.firstIndex(of: "_") {
            country = rest[rest.index(after: underscore)...]
            rest = rest[..<underscore]
        }
        guard !rest.isEmpty, rest != "C", rest != "POSIX" else { return nil }
        language = String(rest)
        self.country = country.flatMap { $0.isEmpty ? nil : String($0) }
        self.modifier = modifier.flatMap { $0.isEmpty ? nil : String($0) }
    }

    /// The locale of `environment` (`LC_ALL`, `LC_MESSAGES`, `LANG`), or nil for untranslated.
    init?(environment: [String: String]) {
        guard let value = ["LC_ALL", "LC_MESSAGES", "LANG"].compactMap({ environment[$0] }).first(where: { !$0.isEmpty })
        else { return nil }
        self.init(value)
    }

    /// The `[locale]` suffixes to try, best first, per the spec's matching rules:
    /// `lang_COUNTRY@MODIFIER`, `lang_COUNTRY`, `lang@MODIFIER`, `lang` (then the untranslated key).
    var candidates: [String] {
        var result: [String] = []
        if let country, let modifier { result.append("\(language)_\(country)@\(modifier)") }
        if let country { result.append("\(language)_\(country)") }
        if let modifier { result.append("\(language)@\(modifier)") }
        result.append(language)
        return result
    }
}
