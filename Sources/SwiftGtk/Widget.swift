internal import CGtk

/// A widget in GTK's tree. GTK owns it — a new widget is floating until a parent or window takes
/// it, and the parent then holds its one reference — so a `Widget` is a borrowed handle, valid
/// while the widget is in a window; nothing here releases it.
@MainActor
public struct Widget {
    let pointer: UnsafeMutablePointer<GtkWidget>

    init(_ pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }

    /// The widget as the pointer type of a final GTK class (which imports as `OpaquePointer`).
    var opaque: OpaquePointer { OpaquePointer(pointer) }

    /// The widget as the pointer type of a derivable GTK class, e.g. `GtkButton`.
    func typed<T>(_: T.Type) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
    }

    var object: gpointer { UnsafeMutableRawPointer(pointer) }
}

/// Anything that is shown as one widget: the controls of this layer and views built from them.
@MainActor
public protocol View {
    var widget: Widget { get }
}

extension Widget: View {
    public var widget: Widget { self }
}

extension View {
    /// The name assistive technologies read for the control (AT-SPI's `name`).
    @discardableResult
    public func accessibleLabel(_ label: String) -> Self {
        cgtk_accessible_set_label(widget.pointer, label)
        return self
    }

    @discardableResult
    public func tooltip(_ text: String) -> Self {
        gtk_widget_set_tooltip_text(widget.pointer, text)
        return self
    }

    @discardableResult
    public func styleClass(_ names: String...) -> Self {
        for name in names { gtk_widget_add_css_class(widget.pointer, name) }
        return self
    }

    @discardableResult
    public func margin(_ points: Int32) -> Self {
        gtk_widget_set_margin_top(widget.pointer, points)
        gtk_widget_set_margin_bottom(widget.pointer, points)
        gtk_widget_set_margin_start(widget.pointer, points)
        gtk_widget_set_margin_end(widget.pointer, points)
        return self
    }

    @discardableResult
    public func expand(horizontally: Bool = false, vertically: Bool = false) -> Self {
        gtk_widget_set_hexpand(widget.pointer, horizontally ? 1 : 0)
        gtk_widget_set_vexpand(widget.pointer, vertically ? 1 : 0)
        return self
    }

    @discardableResult
    public func align(_ horizontal: Alignment? = nil, vertical: Alignment? = nil) -> Self {
        if let horizontal { gtk_widget_set_halign(widget.pointer, horizontal.gtk) }
        if let vertical { gtk_widget_set_valign(widget.pointer, vertical.gtk) }
        return self
    }

    @discardableResult
    public func minimumSize(width: Int32 = -1, height: Int32 = -1) -> Self {
        gtk_widget_set_size_request(widget.pointer, width, height)
        return self
    }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget.pointer) != 0 }
        nonmutating set { gtk_widget_set_visible(widget.pointer, newValue ? 1 : 0) }
    }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget.pointer) != 0 }
        nonmutating set { gtk_widget_set_sensitive(widget.pointer, newValue ? 1 : 0) }
    }

    public func grabFocus() { _ = gtk_widget_grab_focus(widget.pointer) }
}

public enum Alignment: Sendable {
    case fill, start, end, center

    var gtk: GtkAlign {
        switch self {
        case .fill: GTK_ALIGN_FILL
        case .start: GTK_ALIGN_START
        case .end: GTK_ALIGN_END
        case .center: GTK_ALIGN_CENTER
        }
    }
}
