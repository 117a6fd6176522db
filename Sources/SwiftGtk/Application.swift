internal import CGtk

/// The program's `AdwApplication`: it initialises GTK and libadwaita, runs GLib's main loop and
/// ends it when its last window closes. The application object lives as long as the program.
@MainActor
public final class Application {
    let pointer: UnsafeMutablePointer<AdwApplication>
    private var application: UnsafeMutablePointer<GApplication> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GApplication.self)
    }

    /// - Parameters:
    ///   - id: the application id, the desktop file's name without `.desktop`.
    ///   - unique: whether a second start hands over to the first (a settings window) or runs on
    ///     its own (one picker per request).
    public init(id: String, unique: Bool) {
        pointer = adw_application_new(id, unique ? G_APPLICATION_DEFAULT_FLAGS : G_APPLICATION_NON_UNIQUE)
    }

    /// Runs the main loop; `activate` builds the first window. Returns the exit status.
    public func run(activate: @escaping @MainActor (Application) -> Void) -> Int32 {
        Signals.connect(UnsafeMutableRawPointer(pointer), "activate") { [unowned self] in activate(self) }
        return g_application_run(application, 0, nil)
    }
}

/// Starts GTK without an application object, for code that builds widgets outside `run`.
@MainActor
public enum Toolkit {
    /// Whether a display could be opened (`DISPLAY` or `WAYLAND_DISPLAY` names one that answers).
    public static func initialize() -> Bool {
        guard gtk_init_check() != 0 else { return false }
        adw_init()
        return true
    }
}

extension Application {
    /// Keeps the program running with no window open (serving the clipboard), until ``release()``.
    public func hold() {
        g_application_hold(application)
    }

    /// Undoes one ``hold()``: with no window open, the main loop then ends.
    public func release() {
        g_application_release(application)
    }
}
