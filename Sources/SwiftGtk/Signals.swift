internal import CGtk

/// Connects Swift closures to GObject signals. GLib's `g_signal_connect` is a macro; this is
/// `g_signal_connect_data` with the closure retained as its user data and released by GLib when
/// the handler goes (the object is finalized), so the handler owns its closure.
///
/// GLib calls handlers on the main thread, where GTK runs; each trampoline enters main-actor
/// state there.
@MainActor
enum Signals {
    final class Box<Handler> {
        let handler: Handler
        init(_ handler: Handler) { self.handler = handler }
    }

    typealias Plain = () -> Void
    typealias Flag = () -> Bool
    typealias Text = (String) -> Void

    /// A signal whose handler takes only its instance: `clicked`, `toggled`, `activate`, `destroy`.
    /// With `after`, the handler runs after the class's own: a window's `map` has then presented
    /// its toplevel.
    static func connect(_ object: gpointer, _ signal: String, after: Bool = false, _ handler: @escaping Plain) {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            guard let data else { return }
            let box = Unmanaged<Box<Plain>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler() }
        }
        attach(object, signal, unsafeBitCast(trampoline, to: GCallback.self), Box(handler), release: releasePlain, after: after)
    }

    /// A `notify::property` signal (instance, GParamSpec).
    static func connectNotify(_ object: gpointer, _ property: String, _ handler: @escaping Plain) {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            guard let data else { return }
            let box = Unmanaged<Box<Plain>>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler() }
        }
        attach(object, "notify::" + property, unsafeBitCast(trampoline, to: GCallback.self), Box(handler), release: releasePlain)
    }

    /// A signal whose handler answers whether it handled it: `close-request`.
    static func connectFlag(_ object: gpointer, _ signal: String, _ handler: @escaping Flag) {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            guard let data else { return 0 }
            let box = Unmanaged<Box<Flag>>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler() } ? 1 : 0
        }
        attach(object, signal, unsafeBitCast(trampoline, to: GCallback.self), Box(handler), release: releaseFlag)
    }

    /// A signal that carries one string: `AdwMessageDialog::response`.
    static func connectText(_ object: gpointer, _ signal: String, _ handler: @escaping Text) {
        let trampoline: @convention(c) (gpointer?, UnsafePointer<CChar>?, gpointer?) -> Void = { _, text, data in
            guard let data else { return }
            let box = Unmanaged<Box<Text>>.fromOpaque(data).takeUnretainedValue()
            let value = text.map { String(cString: $0) } ?? ""
            MainActor.assumeIsolated { box.handler(value) }
        }
        attach(object, signal, unsafeBitCast(trampoline, to: GCallback.self), Box(handler), release: releaseText)
    }

    private static func attach<Handler>(_ object: gpointer, _ signal: String, _ callback: GCallback, _ box: Box<Handler>,
                                        release: GClosureNotify, after: Bool = false) {
        let data = Unmanaged.passRetained(box).toOpaque()
        if after {
            _ = cgtk_signal_connect_after(object, signal, callback, data, release)
        } else {
            _ = cgtk_signal_connect(object, signal, callback, data, release)
        }
    }

    private static let releasePlain: GClosureNotify = { data, _ in
        if let data { Unmanaged<Box<Plain>>.fromOpaque(data).release() }
    }
    private static let releaseFlag: GClosureNotify = { data, _ in
        if let data { Unmanaged<Box<Flag>>.fromOpaque(data).release() }
    }
    private static let releaseText: GClosureNotify = { data, _ in
        if let data { Unmanaged<Box<Text>>.fromOpaque(data).release() }
    }
}
