import PickerChannel
import SwiftGtk

/// The line that says who is asking and why: the app's icon and name from its desktop file, and
/// its reason in its own words, marked as the app's.
@MainActor
struct AskerBanner: View {
    let widget: Widget

    init(request: PickerRequest) {
        let icon = request.appIcon.map { Image(file: $0, size: 32) } ?? Image(icon: "application-x-executable", size: 32)
        let asks = Label("\(request.appName) asks for music you listened to. It gets only what you share.", wraps: true)
        let text = Box(.vertical, spacing: 2, [asks.styleClass("heading")])
        if let reason = request.reason, !reason.isEmpty {
            text.append(Label("“\(reason)” — \(request.appName)", wraps: true).styleClass("dim-label"))
        }
        widget = Box(.horizontal, spacing: 12, [icon.accessibleLabel("\(request.appName) icon"), text.expand(horizontally: true)])
            .margin(12).widget
    }
}
