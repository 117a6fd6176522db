internal import CGtk

/// A settings window of pages of grouped rows (`AdwPreferencesWindow`).
@MainActor
public struct PreferencesWindow: View {
    public let widget: Widget

    /// `height`: the default height, for a page whose rows would not fit the default one.
    public init(application: Application, title: String, height: Int32? = nil) {
        widget = Widget(adw_preferences_window_new())
        let window = widget.typed(GtkWindow.self)
        gtk_window_set_title(window, title)
        if let height { gtk_window_set_default_size(window, -1, height) }
        gtk_window_set_application(window, UnsafeMutableRawPointer(application.pointer).assumingMemoryBound(to: GtkApplication.self))
        adw_preferences_window_set_search_enabled(widget.typed(AdwPreferencesWindow.self), 0)
    }

    public func add(_ page: PreferencesPage) {
        adw_preferences_window_add(widget.typed(AdwPreferencesWindow.self), page.widget.typed(AdwPreferencesPage.self))
    }

    /// The window as a parent for dialogs.
    public var window: Window { Window(wrapping: widget) }

    public func present() { gtk_window_present(widget.typed(GtkWindow.self)) }
}

extension Window {
    init(wrapping widget: Widget) { self.widget = widget }
}

/// One page of a ``PreferencesWindow``.
@MainActor
public struct PreferencesPage: View {
    public let widget: Widget

    public init(title: String, icon: String) {
        widget = Widget(adw_preferences_page_new())
        let page = widget.typed(AdwPreferencesPage.self)
        adw_preferences_page_set_title(page, title)
        adw_preferences_page_set_icon_name(page, icon)
    }

    public func add(_ group: PreferencesGroup) {
        adw_preferences_page_add(widget.typed(AdwPreferencesPage.self), group.widget.typed(AdwPreferencesGroup.self))
    }
}

/// A titled group of rows.
@MainActor
public struct PreferencesGroup: View {
    public let widget: Widget
    private var group: UnsafeMutablePointer<AdwPreferencesGroup> { widget.typed(AdwPreferencesGroup.self) }

    public init(title: String, description: String? = nil) {
        widget = Widget(adw_preferences_group_new())
        adw_preferences_group_set_title(group, title)
        if let description { adw_preferences_group_set_description(group, description) }
    }

    public func add(_ child: some View) { adw_preferences_group_add(group, child.widget.pointer) }

    /// Removes `child`, which this group holds.
    public func remove(_ child: some View) { adw_preferences_group_remove(group, child.widget.pointer) }
}

/// A row with a title, a subtitle, and a control at its end (`AdwActionRow`). The control keeps
/// its own accessible name: made the row's activatable widget, GTK 4.8 would append the row's
/// title to it.
/// The title and subtitle are plain text, never markup: they hold words from players and apps
/// (a title with `&` or `<` in it), which must show as they are.
@MainActor
public struct ActionRow: View {
    public let widget: Widget

    public init(title: String, subtitle: String? = nil, control: (any View)? = nil) {
        widget = Widget(adw_action_row_new())
        let row = widget.typed(AdwActionRow.self)
        adw_preferences_row_set_use_markup(widget.typed(AdwPreferencesRow.self), 0)
        adw_preferences_row_set_title(widget.typed(AdwPreferencesRow.self), title)
        if let subtitle { adw_action_row_set_subtitle(row, subtitle) }
        if let control { adw_action_row_add_suffix(row, control.widget.pointer) }
    }
}
