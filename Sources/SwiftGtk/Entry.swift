internal import CGtk

/// A one-line text field (`GtkEntry`) the person types into; `changed` runs after each edit, by
/// the person or by code. Its accessible name is set by the caller (`accessibleLabel`), as a
/// field shows no name of its own.
@MainActor
public struct Entry: View {
    public let widget: Widget
    private var editable: OpaquePointer { widget.opaque }

    /// - Parameters:
    ///   - text: what the field holds at first.
    ///   - placeholder: the hint shown while it is empty (how to fill it in).
    ///   - activatesDefault: whether Enter in it answers its window's default (a dialog's Save).
    public init(text: String = "", placeholder: String? = nil, activatesDefault: Bool = false,
                changed: (@MainActor (String) -> Void)? = nil) {
        widget = Widget(gtk_entry_new())
        let entry = widget.typed(GtkEntry.self)
        gtk_editable_set_text(editable, text)
        if let placeholder { gtk_entry_set_placeholder_text(entry, placeholder) }
        gtk_entry_set_activates_default(entry, activatesDefault ? 1 : 0)
        if let changed {
            let editable = editable
            Signals.connect(widget.object, "changed") { changed(String(cString: gtk_editable_get_text(editable))) }
        }
    }

    public var text: String {
        get { String(cString: gtk_editable_get_text(editable)) }
        nonmutating set { gtk_editable_set_text(editable, newValue) }
    }
}
