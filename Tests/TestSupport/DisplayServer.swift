// Where a test's windows show: an X display or a Wayland compositor.

/// A display server a test started: what a program needs in its environment to show its windows
/// there (`DISPLAY`, or `WAYLAND_DISPLAY` and `XDG_RUNTIME_DIR`).
public protocol DisplayServer: Sendable {
    var environment: [String: String] { get }
}
