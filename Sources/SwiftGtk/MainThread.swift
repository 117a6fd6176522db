internal import CGtk

/// Runs work on GTK's thread from any other (a client call's completion): GLib's main loop, not
/// Dispatch's main queue, is what a GTK program runs, so main-actor work is handed to it with
/// `g_idle_add_full`.
public enum MainThread {
    private final class Work: Sendable {
        let run: @Sendable @MainActor () -> Void
        init(_ run: @escaping @Sendable @MainActor () -> Void) { self.run = run }
    }

    public static func perform(_ work: @escaping @Sendable @MainActor () -> Void) {
        let callback: GSourceFunc = { data in
            guard let data else { return 0 }
            let work = Unmanaged<Work>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { work.run() }
            return 0  // G_SOURCE_REMOVE
        }
        let release: GDestroyNotify = { data in
            if let data { Unmanaged<Work>.fromOpaque(data).release() }
        }
        _ = g_idle_add_full(G_PRIORITY_DEFAULT, callback, Unmanaged.passRetained(Work(work)).toOpaque(), release)
    }
}
