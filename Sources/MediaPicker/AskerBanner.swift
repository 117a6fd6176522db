import Localization
import PickerChannel
import SwiftGtk

/// The line that says who is asking and why: the app's icon and name from its desktop file, and
/// its reason in its own words, marked as the app's.
@MainActor
struct AskerBanner: View {
    let widget: Widget

    init(request: PickerRequest) {
        guard request.purpose == .share else {
            let says = Label(localized("Tick what to copy. It goes to the clipboard as text, to paste into your journal."), wraps: true)
            widget = Box(.horizontal, spacing: 12, [Image(icon: "edit-copy-symbolic", size: 32), says.styleClass("heading").expand(horizontally: true)])
                .margin(12).widget
            return
        }
        let icon = Image.picture(request.appIcon, size: 32, placeholder: "application-x-executable")
        let asker = request.askerName
        let asks = Label(localized("{app} asks for music you listened to. It gets only what you share.", ["app": asker]), wraps: true)
        let text = Box(.vertical, spacing: 2, [asks.styleClass("heading")])
        if let reason = request.reason, !reason.isEmpty {
            text.append(// TRANSLATORS: the asking app's reason, in its own words, and the app's name.
            Label(localized("“{reason}” — {app}", ["reason": reason, "app": asker]), wraps: true).styleClass("dim-label"))
        }
        widget = Box(.horizontal, spacing: 12, [icon.accessibleLabel(localized("{app} icon", ["app": asker])), text.expand(horizontally: true)])
            .margin(12).widget
    }
}

extension PickerRequest {
    /// The asking app as the person reads it at the start of a sentence: its name, or a plain
    /// wording when the broker could not tell which app asks — never an interpreter's name.
    var askerName: String { appName ?? localized("An app on this computer") }

    /// The picker window's title.
    var windowTitle: String {
        guard purpose == .share else { return headerTitle }
        return appName.map { localized("Share Listening with {app}", ["app": $0]) } ?? headerTitle
    }

    /// The title in the window's header bar.
    var headerTitle: String { purpose == .copy ? localized("Copy Listening") : localized("Share Listening") }
}
