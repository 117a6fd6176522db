internal import CGtk

/// Runs work on GTK's thread from any other (a client call's completion): GLib's main loop, not
/// Dispatch's main queue, is what a GTK program runs, so main-actor work is handed to it as a
/// GLib source.
public enum MainThread {
    private final class Work: Sendable {
        let run: @Sendable @MainActor () -> Void
        init(_ run: @escaping @Sendable @MainActor () -> Void) { self.run = run }
    }

    /// Runs `work` once, as soon as the main loop is free.
    public static func perform(_ work: @escaping @Sendable @MainActor () -> Void) {
        _ = g_idle_add_full(G_PRIORITY_DEFAULT, runOnce, Unmanaged.passRetained(Work(work)).toOpaque(), release)
    }

    /// Runs `work` once, `seconds` from now.
    public static func after(seconds: UInt32, _ work: @escaping @Sendable @MainActor () -> Void) {
        _ = g_timeout_add_seconds_full(G_PRIORITY_DEFAULT, seconds, runOnce, Unmanaged.passRetained(Work(work)).toOpaque(), release)
    }

    private static let runOnce: GSourceFunc = { data in
        guard let data else { return 0 }
        let work = Unmanaged<Work>.fromOpaque(data).takeUnretainedValue()
        MainActor.assumeIsolated { work.run() }
        return 0  // G_SOURCE_REMOVE
    }

    private static let release: GDestroyNotify = { data in
        if let data { Unmanaged<Work>.fromOpaque(data).release() }
    }
}
