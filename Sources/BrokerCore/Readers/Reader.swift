/// Who is calling the broker, told from the caller's process as xdg-desktop-portal tells it —
/// never from anything the caller says (its arguments, its bus name, its `app_id`).
///
/// The broker gates sandboxed apps and not host processes: an unsandboxed process of the person
/// cannot be told apart from any other, and it could read the history file itself anyway.
package enum Reader: Hashable, Sendable {
    /// An unsandboxed process of the person.
    case host
    /// A Flatpak app (its app id) or a snap (its name).
    case app(String)
    /// A process the broker could not tell: gone before it was looked at, its `/proc` unreadable,
    /// or a sandbox that names no valid app. It reads nothing and can be granted nothing.
    case unidentified

    /// The app id of a sandboxed reader.
    package var appID: String? {
        if case .app(let id) = self { return id }
        return nil
    }

    /// As `Readers`, logs and errors name it.
    package var description: String {
        switch self {
        case .host: "host"
        case .app(let id): id
        case .unidentified: "an unidentified process"
        }
    }
}
