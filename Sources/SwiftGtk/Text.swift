internal import CGtk

/// A line or paragraph of text.
@MainActor
public struct Label: View {
    public let widget: Widget
    private var label: OpaquePointer { widget.opaque }

    public init(_ text: String, wraps: Bool = false) {
        widget = Widget(gtk_label_new(text))
        gtk_label_set_xalign(label, 0)
        if wraps {
            gtk_label_set_wrap(label, 1)
            gtk_label_set_wrap_mode(label, PANGO_WRAP_WORD_CHAR)
        } else {
            gtk_label_set_ellipsize(label, PANGO_ELLIPSIZE_END)
        }
    }

    public var text: String {
        get { String(cString: gtk_label_get_text(label)) }
        nonmutating set { gtk_label_set_text(label, newValue) }
    }
}
