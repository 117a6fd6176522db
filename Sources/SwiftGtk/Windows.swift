internal import CGtk

/// A top-level window of the application (`AdwApplicationWindow`): its content fills it, title
/// bar included.
@MainActor
public struct Window: View {
    public let widget: Widget
    var window: UnsafeMutablePointer<GtkWindow> { widget.typed(GtkWindow.self) }

    public init(application: Application, title: String, width: Int32, height: Int32) {
        let gtkApplication = UnsafeMutableRawPointer(application.pointer).assumingMemoryBound(to: GtkApplication.self)
        widget = Widget(adw_application_window_new(gtkApplication))
        gtk_window_set_title(window, title)
        gtk_window_set_default_size(window, width, height)
    }

    public func setContent(_ content: some View) {
        adw_application_window_set_content(widget.typed(AdwApplicationWindow.self), content.widget.pointer)
    }

    public func present() { gtk_window_present(window) }
    public func destroy() { gtk_window_destroy(window) }

    /// Runs `closing` when the person closes the window (its close button, Escape, the window
    /// manager); answering `true` keeps it open.
    public func onCloseRequest(_ closing: @escaping @MainActor () -> Bool) {
        Signals.connectFlag(widget.object, "close-request", closing)
    }

    /// Makes the window transient for another program's window once it is shown, as portals name
    /// it (`x11:XID`, `wayland:HANDLE`): it stays above that window and goes with it. Does
    /// nothing for a name that does not fit the display.
    public func transient(forForeign parent: String) {
        guard !parent.isEmpty else { return }
        let window = window
        Signals.connect(widget.object, "realize") { _ = cgtk_window_set_foreign_parent(window, parent) }
    }

    /// Closes the window on Escape, as dialogs do.
    public func closesOnEscape() {
        guard let controller = gtk_shortcut_controller_new() else { return }
        let trigger = gtk_shortcut_trigger_parse_string("Escape")
        let action = gtk_named_action_new("window.close")
        gtk_shortcut_controller_add_shortcut(controller, gtk_shortcut_new(trigger, action))
        gtk_widget_add_controller(widget.pointer, controller)
    }
}
