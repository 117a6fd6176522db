/// The `[Desktop Entry]` group of a desktop file, reduced to what app identity and launching a
/// journal app need.
///
/// Per the Desktop Entry spec: only the `[Desktop Entry]` group is read (actions and other groups
/// are ignored); string values are unescaped; `Name` is taken in the given locale by the spec's
/// matching rules. A malformed line is skipped; a file without the group parses to nil.
struct DesktopEntry: Equatable, Sendable {
    static let group = "Desktop Entry"
    static let suggestionURLKey = "X-MediaBroker-Suggestion-URL"

    /// `Type` (`Application`, `Link`, `Directory`), nil when absent.
    var type: String?
    /// The untranslated `Name`.
    var name: String?
    /// `Name` in the locale asked for, else the untranslated one.
    var localizedName: String?
    var icon: String?
    var startupWMClass: String?
    var exec: String?
    var noDisplay: Bool
    /// `Hidden=true`: the entry counts as deleted, and hides files with the same id further down.
    var hidden: Bool
    /// `DBusActivatable=true`: the app is started through `org.freedesktop.Application` on the bus.
    var dbusActivatable: Bool
    /// `X-MediaBroker-Suggestion-URL`: a journal app's URL for a suggestion (docs/journal-apps.md).
    var suggestionURL: String?

    /// Parses a desktop file's bytes; nil when there is no `[Desktop Entry]` group.
    init?(parsing bytes: [UInt8], locale: DesktopLocale?) {
        let file = KeyFile(parsing: bytes, keeping: { $0 == Self.group })
        guard let keys = file.groups[Self.group] else { return nil }
        func string(_ key: String) -> String? {
            keys[key].map(KeyFile.unescaped).flatMap { $0.isEmpty ? nil : $0 }
        }
        type = string("Type")
        name = string("Name")
        localizedName = name
        for candidate in locale?.candidates ?? [] {
            if let translated = string("Name[\(candidate)]") {
                localizedName = translated
                break
            }
        }
        icon = string("Icon")
        startupWMClass = string("StartupWMClass")
        exec = string("Exec")
        noDisplay = KeyFile.boolean(keys["NoDisplay"]) ?? false
        hidden = KeyFile.boolean(keys["Hidden"]) ?? false
        dbusActivatable = KeyFile.boolean(keys["DBusActivatable"]) ?? false
        suggestionURL = string(Self.suggestionURLKey)
    }

    /// Whether this entry describes an application (a missing `Type` is accepted leniently).
    var isApplication: Bool { type == nil || type == "Application" }
}
