internal import CGtk

/// Children in a row or a column.
@MainActor
public struct Box: View {
    public enum Axis: Sendable { case horizontal, vertical }
    public let widget: Widget
    private var box: UnsafeMutablePointer<GtkBox> { widget.typed(GtkBox.self) }

    public init(_ axis: Axis, spacing: Int32 = 0, _ children: [any View] = []) {
        widget = Widget(gtk_box_new(axis == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL, spacing))
        for child in children { append(child) }
    }

    public func append(_ child: some View) { gtk_box_append(box, child.widget.pointer) }

    public func removeAll() {
        while let child = gtk_widget_get_first_child(widget.pointer) { gtk_box_remove(box, child) }
    }
}

/// Scrolls its child vertically.
@MainActor
public struct ScrolledWindow: View {
    public let widget: Widget

    public init(_ child: some View) {
        widget = Widget(gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(widget.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(widget.opaque, child.widget.pointer)
        expand(vertically: true)
    }
}

/// Two panes side by side while the window is wide, one at a time (with a way back) once it is
/// narrow: libadwaita's `AdwLeaflet`.
@MainActor
public struct Leaflet: View {
    public let widget: Widget
    private var leaflet: OpaquePointer { widget.opaque }

    public init() {
        widget = Widget(adw_leaflet_new())
        adw_leaflet_set_can_navigate_back(leaflet, 1)
    }

    public func append(_ child: some View) { _ = adw_leaflet_append(leaflet, child.widget.pointer) }

    public func show(_ child: some View) { adw_leaflet_set_visible_child(leaflet, child.widget.pointer) }

    /// Whether only one pane shows.
    public var isFolded: Bool { adw_leaflet_get_folded(leaflet) != 0 }

    /// Runs `changed` whenever the leaflet folds or unfolds.
    public func onFoldChange(_ changed: @escaping @MainActor (Bool) -> Void) {
        let leaflet = leaflet
        Signals.connectNotify(widget.object, "folded") { changed(adw_leaflet_get_folded(leaflet) != 0) }
    }
}

/// A window's title bar with buttons at its ends.
@MainActor
public struct HeaderBar: View {
    public let widget: Widget
    private var bar: OpaquePointer { widget.opaque }

    public init(title: (any View)? = nil, showsCloseButton: Bool = true) {
        widget = Widget(adw_header_bar_new())
        if let title { adw_header_bar_set_title_widget(bar, title.widget.pointer) }
        adw_header_bar_set_show_end_title_buttons(bar, showsCloseButton ? 1 : 0)
        adw_header_bar_set_show_start_title_buttons(bar, showsCloseButton ? 1 : 0)
    }

    public func start(_ child: some View) { adw_header_bar_pack_start(bar, child.widget.pointer) }
    public func end(_ child: some View) { adw_header_bar_pack_end(bar, child.widget.pointer) }
}

/// A page that says what is (not) here: an icon, a title, a line or two and optional controls.
@MainActor
public struct StatusPage: View {
    public let widget: Widget

    public init(icon: String, title: String, description: String, child: (any View)? = nil) {
        widget = Widget(adw_status_page_new())
        adw_status_page_set_icon_name(widget.opaque, icon)
        adw_status_page_set_title(widget.opaque, title)
        adw_status_page_set_description(widget.opaque, description)
        if let child { adw_status_page_set_child(widget.opaque, child.widget.pointer) }
    }
}
