internal import CGtk

/// A question with a few answers over a window (`AdwMessageDialog`); `answered` gets the chosen
/// answer's id, or `cancel` when it is dismissed.
@MainActor
public struct MessageDialog: View {
    public let widget: Widget
    private var dialog: UnsafeMutablePointer<AdwMessageDialog> { widget.typed(AdwMessageDialog.self) }

    public enum Style: Sendable { case normal, suggested, destructive }

    public init(over parent: Window, heading: String, body: String) {
        widget = Widget(adw_message_dialog_new(parent.window, heading, body))
    }

    public func addAnswer(_ id: String, _ label: String, style: Style = .normal) {
        adw_message_dialog_add_response(dialog, id, label)
        switch style {
        case .normal: break
        case .suggested: adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_SUGGESTED)
        case .destructive: adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_DESTRUCTIVE)
        }
    }

    /// Shows `child` (a form, an option) beneath the heading and body, above the answers.
    public func showBeneathText(_ child: some View) {
        adw_message_dialog_set_extra_child(dialog, child.widget.pointer)
    }

    /// Makes answer `id` available or not: an answer the dialog's form cannot give yet (an empty
    /// field) stays unavailable until it can.
    public func setAnswer(_ id: String, enabled: Bool) {
        adw_message_dialog_set_response_enabled(dialog, id, enabled ? 1 : 0)
    }

    /// Shows the dialog. `cancel` is what dismissing it answers; `byDefault` is what Enter answers
    /// (`cancel` unless told).
    public func present(cancel: String, byDefault: String? = nil, answered: @escaping @MainActor (String) -> Void) {
        adw_message_dialog_set_close_response(dialog, cancel)
        adw_message_dialog_set_default_response(dialog, byDefault ?? cancel)
        Signals.connectText(widget.object, "response", answered)
        gtk_window_present(widget.typed(GtkWindow.self))
    }
}
