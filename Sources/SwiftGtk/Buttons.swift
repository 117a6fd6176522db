internal import CGtk

/// A push button, with a text label or an icon.
@MainActor
public struct Button: View {
    public let widget: Widget

    /// A button with a text label; an underscore in `label` marks its mnemonic (`_Share`: Alt+S).
    /// The label is the button's mnemonic label, which names it for assistive technologies (GTK
    /// 4.8's own mnemonic button would add its `label` property, underscore and all, to the name).
    public init(_ label: String, action: @escaping @MainActor () -> Void) {
        widget = Widget(gtk_button_new())
        let text = gtk_label_new_with_mnemonic(label)
        gtk_label_set_mnemonic_widget(OpaquePointer(text), widget.pointer)
        gtk_button_set_child(widget.typed(GtkButton.self), text)
        Signals.connect(widget.object, "clicked", action)
    }

    /// A button showing `child` (a row of a list): its accessible name is set by the caller.
    public init(child: some View, action: @escaping @MainActor () -> Void) {
        widget = Widget(gtk_button_new())
        gtk_button_set_child(widget.typed(GtkButton.self), child.widget.pointer)
        Signals.connect(widget.object, "clicked", action)
    }

    public init(icon: String, label: String, action: @escaping @MainActor () -> Void) {
        widget = Widget(gtk_button_new_from_icon_name(icon))
        Signals.connect(widget.object, "clicked", action)
        accessibleLabel(label)
        tooltip(label)
    }
}

/// A check box with a label; `toggled` runs after each change, by the person or by code. A check
/// box read only when its form is answered (a dialog's option) needs no `toggled`.
@MainActor
public struct CheckButton: View {
    public let widget: Widget
    private var check: UnsafeMutablePointer<GtkCheckButton> { widget.typed(GtkCheckButton.self) }

    public init(_ label: String, isActive: Bool, toggled: (@MainActor (Bool) -> Void)? = nil) {
        widget = Widget(gtk_check_button_new_with_label(label))
        gtk_check_button_set_active(check, isActive ? 1 : 0)
        guard let toggled else { return }
        let check = check
        Signals.connect(widget.object, "toggled") { toggled(gtk_check_button_get_active(check) != 0) }
    }

    public var isActive: Bool {
        get { gtk_check_button_get_active(check) != 0 }
        nonmutating set { gtk_check_button_set_active(check, newValue ? 1 : 0) }
    }

    /// Makes this check button one of a group of radio buttons with `other`.
    public func group(with other: CheckButton) {
        gtk_check_button_set_group(check, other.check)
    }
}

/// An on/off switch; `changed` runs when the person (or code) flips it.
@MainActor
public struct Switch: View {
    public let widget: Widget
    private var toggle: OpaquePointer { widget.opaque }

    public init(isOn: Bool, changed: @escaping @MainActor (Bool) -> Void) {
        widget = Widget(gtk_switch_new())
        gtk_switch_set_active(toggle, isOn ? 1 : 0)
        let toggle = toggle
        Signals.connectNotify(widget.object, "active") { changed(gtk_switch_get_active(toggle) != 0) }
        align(vertical: .center)
    }

    public var isOn: Bool {
        get { gtk_switch_get_active(toggle) != 0 }
        nonmutating set { gtk_switch_set_active(toggle, newValue ? 1 : 0) }
    }
}

/// A number the person types or steps; `changed` runs when it changes.
@MainActor
public struct SpinButton: View {
    public let widget: Widget
    private var spin: OpaquePointer { widget.opaque }

    public init(value: Double, range: ClosedRange<Double>, step: Double, changed: @escaping @MainActor (Double) -> Void) {
        widget = Widget(gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step))
        gtk_spin_button_set_value(spin, value)
        let spin = spin
        Signals.connect(widget.object, "value-changed") { changed(gtk_spin_button_get_value(spin)) }
        align(vertical: .center)
    }

    public var value: Double {
        get { gtk_spin_button_get_value(spin) }
        nonmutating set { gtk_spin_button_set_value(spin, newValue) }
    }
}
