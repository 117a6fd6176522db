internal import CGtk
internal import CWaylandForeign

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
    /// nothing for a name that does not fit the display, or a handle the compositor does not know.
    ///
    /// On Wayland GTK 4.8 imports the handle with xdg-foreign v1 only, which GNOME's mutter offers
    /// and KDE's KWin 5.27 does not (it offers v2): where the compositor has no v1 importer and
    /// has a v2 one, the window imports the handle with v2 itself (`ForeignParent`).
    public func transient(forForeign parent: String) {
        guard !parent.isEmpty else { return }
        let window = window
        let foreign = ForeignParent()
        Signals.connect(widget.object, "realize") {
            if parent.hasPrefix(ForeignParent.waylandPrefix), let display = cgtk_window_wl_display(window),
               foreign.importsItself(display: display, handle: String(parent.dropFirst(ForeignParent.waylandPrefix.count))) {
                return
            }
            _ = cgtk_window_set_foreign_parent(window, parent)
        }
        // v2's set_parent_of takes an xdg_toplevel, which GTK makes when it presents the window,
        // in the class's `map`: hence after it. Each map, as a window shown again is a new toplevel.
        Signals.connect(widget.object, "map", after: true) { foreign.setParent(of: cgtk_window_wl_surface(window)) }
        Signals.connect(widget.object, "unrealize") { foreign.release() }
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

/// The other program's window a window imported with xdg-foreign v2, while it is realized: the
/// one owner of the import, which it destroys when the window is unrealized (its surface goes) or
/// imports anew.
@MainActor
final class ForeignParent {
    static let waylandPrefix = "wayland:"
    private var imported: OpaquePointer?

    /// Imports `handle` with v2 where the compositor offers no v1 importer; false where GTK's own
    /// v1 import is the one to make (one look at the registry decides both).
    func importsItself(display: OpaquePointer, handle: String) -> Bool {
        release()
        var gtkImports = true
        // NULL for a handle the compositor does not know: the window then shows unattached.
        imported = mb_foreign_import_v2(display, handle, &gtkImports)
        return !gtkImports
    }

    func setParent(of surface: OpaquePointer?) {
        guard let imported, let surface else { return }
        mb_foreign_set_parent_of(imported, surface)
    }

    func release() {
        mb_foreign_parent_free(imported)
        imported = nil
    }
}
