internal import CGtk

/// The display's clipboard (`GdkClipboard`): text put there is served by this program until
/// another takes the clipboard, or a clipboard manager stores a copy of it.
@MainActor
public final class Clipboard {
    private let pointer: OpaquePointer

    /// The default display's clipboard; `nil` before GTK is initialised.
    public static var current: Clipboard? {
        guard let display = gdk_display_get_default() else { return nil }
        return Clipboard(gdk_display_get_clipboard(display))
    }

    private init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    public func set(_ text: String) {
        gdk_clipboard_set_text(pointer, text)
    }

    /// Whether this program serves what the clipboard holds.
    public var isLocal: Bool { gdk_clipboard_is_local(pointer) != 0 }

    /// Runs `action` each time the clipboard changes hands or content, ours or another program's.
    public func onChange(_ action: @escaping @MainActor () -> Void) {
        Signals.connect(UnsafeMutableRawPointer(pointer), "changed", action)
    }

    /// Asks the desktop's clipboard manager to keep a copy of what this program serves; `done`
    /// says whether one did. Where there is none (or the display cannot store, as Wayland's),
    /// the answer is false at once.
    public func store(done: @escaping @MainActor (Bool) -> Void) {
        let finished: GAsyncReadyCallback = { source, result, data in
            guard let data else { return }
            let box = Unmanaged<Signals.Box<(Bool) -> Void>>.fromOpaque(data).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let stored = gdk_clipboard_store_finish(OpaquePointer(source), result, &error) != 0
            if let error { g_error_free(error) }
            MainActor.assumeIsolated { box.handler(stored) }
        }
        let box = Unmanaged.passRetained(Signals.Box<(Bool) -> Void>(done)).toOpaque()
        gdk_clipboard_store_async(pointer, G_PRIORITY_DEFAULT, nil, finished, box)
    }
}
