import Localization
import SwiftGtk
#if canImport(Glibc)
import Glibc
#endif

/// The explanation shown the first time the picker opens, until the person has read it once.
/// Having read it is kept as an empty file in the broker's configuration folder.
@MainActor
struct Introduction {
    static func page(appName: String, done: @escaping @MainActor () -> Void) -> some View {
        let go = Button(localized("_Continue")) { done() }.styleClass("suggested-action", "pill")
            .align(.center)
        return StatusPage(
            icon: "audio-x-generic-symbolic", title: localized("Share What You Listened To"),
            // TRANSLATORS: "Listening History" is the settings window's name among the person's apps.
            description: localized("{app} can add music and podcasts you listened to to your journal. You choose exactly what it gets: it never sees the rest of your listening history. Listening History in your apps controls what is kept.", ["app": appName]),
            child: go
        ).expand(vertically: true)
    }

    /// Whether the explanation was already shown, per `environment`'s configuration folder.
    nonisolated static func wasShown(environment: [String: String]) -> Bool {
        guard let path = markerPath(environment: environment) else { return false }
        return access(path, F_OK) == 0
    }

    nonisolated static func markShown(environment: [String: String]) {
        guard let path = markerPath(environment: environment) else { return }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        _ = mkdir(String(folder[..<(folder.lastIndex(of: "/") ?? folder.endIndex)]), 0o700)
        _ = mkdir(folder, 0o700)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
    }

    /// `$XDG_CONFIG_HOME/media-broker/picker-introduced`, or under `~/.config`.
    nonisolated static func markerPath(environment: [String: String]) -> String? {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? environment["HOME"].map { $0 + "/.config" }
        return config.map { $0 + "/media-broker/picker-introduced" }
    }
}
