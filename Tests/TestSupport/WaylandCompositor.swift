// A real Wayland desktop's compositor, started headless, for windows that must show as they do in
// a GNOME or KDE Wayland session (issue 36).

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// GNOME's or KDE's compositor from Debian's packages, headless on a virtual monitor of 1280×800,
/// with its Wayland socket in a runtime folder of its own and its D-Bus services on the test's
/// private bus. A program given ``environment`` (and no `DISPLAY`: none starts Xwayland) shows its
/// windows there. Stopped when the last reference goes away.
///
/// Found out by hand on Debian 12, as root, with no logind session and no systemd user session:
/// - mutter 43 starts as given (`--headless --wayland --no-x11 --virtual-monitor`).
/// - gnome-shell 43 ends at once ("JS ERROR: Gio.IOErrorEnum: Could not connect: No such file or
///   directory", from `LoginManagerSystemd`) when there is no system bus: it asks logind there
///   whenever `/run/systemd/seats` exists. Given a private bus as its system bus it starts, and
///   `--unsafe-mode` opens `org.gnome.Shell.Eval` and its screenshots to the tests.
/// - kwin_wayland 5.27 carries the file capability `cap_sys_resource`, which a sandbox without it
///   in its bounding set cannot grant: exec fails with EPERM ("Operation not permitted"). Run
///   through the dynamic loader it starts (a loader runs a program's code without its file
///   capabilities, which KWin only uses to raise its limits); KWin then takes the loader for
///   another program and refuses its own Qt platform unless `KWIN_FORCE_OWN_QPA` is set.
public final class WaylandCompositor: DisplayServer {
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case mutter
        case gnomeShell = "gnome-shell"
        case kwin

        public var description: String { rawValue }
    }

    public let kind: Kind
    public let process: ChildProcess
    /// The runtime folder (`XDG_RUNTIME_DIR`, mode 0700) holding the Wayland socket.
    public let runtime: TemporaryDirectory
    /// The socket's name in ``runtime``, for `WAYLAND_DISPLAY`.
    public let socket = "wayland-test"
    /// The session bus the compositor's services are on.
    public let bus: PrivateBus
    /// GNOME Shell's system bus, where it looks for logind; nil for the others.
    private let systemBus: PrivateBus?

    /// What a program needs to show its windows here: no `DISPLAY`, as in a Wayland session
    /// without Xwayland.
    public var environment: [String: String] { ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtime.path] }

    /// Thrown when the compositor ends before it accepts clients, with everything it printed.
    public struct CannotStart: Error, CustomStringConvertible {
        public let kind: Kind
        public let transcript: String
        public var description: String { "\(kind) could not start headless here:\n\(transcript)" }
    }

    /// Starts a compositor of `kind` with its services on `bus`, and waits until its Wayland
    /// socket accepts clients and it owns its main bus name (its desktop's interfaces are there).
    /// With `scale` 2 the monitor is a HiDPI one: 2560×1600 pixels shown as 1280×800 at 2×, as a
    /// person sets it in the desktop's display settings.
    public init(_ kind: Kind, bus: PrivateBus, scale: Int = 1, timeout: Duration = .seconds(30)) throws {
        self.kind = kind
        self.bus = bus
        runtime = try TemporaryDirectory(prefix: "wayland-runtime")
        guard chmod(runtime.path, 0o700) == 0 else { throw TestSupportError("cannot make \(runtime.path) private") }
        var environment = bus.environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 }
        let size = ["--width", "1280", "--height", "800", "--scale", String(scale)]
        let name: String
        switch kind {
        case .mutter:
            systemBus = nil
            name = "org.gnome.Mutter.DisplayConfig"
            process = try ChildProcess.launch("mutter", arguments: Self.gnomeArguments(socket: socket, scale: scale), environment: environment)
        case .gnomeShell:
            let systemBus = try PrivateBus.start()
            self.systemBus = systemBus
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
            name = "org.gnome.Shell"
            process = try ChildProcess.launch("gnome-shell", arguments: Self.gnomeArguments(socket: socket, scale: scale) + ["--unsafe-mode"],
                                              environment: environment)
        case .kwin:
            systemBus = nil
            name = "org.kde.KWin"
            // Screenshots through org.kde.KWin.ScreenShot2 are for the tests, whose processes have
            // no desktop file granting them.
            environment["KWIN_FORCE_OWN_QPA"] = "1"
            environment["KWIN_SCREENSHOT_NO_PERMISSION_CHECKS"] = "1"
            process = try ChildProcess.launch(Self.loader, arguments: ["/usr/bin/kwin_wayland", "--virtual", "--socket", socket,
                                                                       "--no-lockscreen", "--no-global-shortcuts"] + size,
                                              environment: environment)
        }
        // Thrown from here on, the compositor is stopped by deinit.
        let process = process
        let path = runtime.appending(socket)
        try waitUntil("\(kind) accepts Wayland clients on \(path) and owns \(name)", timeout: timeout) {
            guard process.isRunning else { throw CannotStart(kind: kind, transcript: process.transcript) }
            guard Self.accepts(path) else { return false }
            return try bus.listNames().contains(name)
        }
        if kind == .gnomeShell {
            // Its name comes before its objects, and they before its interface is built; windows
            // and notifications need all of it. Until then Eval is not there or answers "true".
            try waitUntil("GNOME Shell has started up", timeout: timeout) {
                guard process.isRunning else { throw CannotStart(kind: kind, transcript: process.transcript) }
                return (try? eval("Main.layoutManager._startingUp")) == "false"
            }
            // A session starts in the overview, with a banner saying it runs as root: a person
            // leaves the one and reads the other, and only then sees windows as they are.
            _ = try eval("Main.overview.hide(); Main.messageTray.getSources().forEach(source => source.destroy()); true")
        }
        if scale != 1 && kind != .kwin { try scaleGnomeMonitor(by: scale) }
    }

    private static func gnomeArguments(socket: String, scale: Int) -> [String] {
        ["--headless", "--wayland", "--no-x11", "--virtual-monitor", "\(1280 * scale)x\(800 * scale)", "--wayland-display", socket]
    }

    /// Sets the scale of GNOME's virtual monitor as the display settings do, through
    /// `org.gnome.Mutter.DisplayConfig` (its only monitor, its only mode; kept until it stops),
    /// and waits until it is in use.
    private func scaleGnomeMonitor(by scale: Int) throws {
        let state = try gdbus("org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig", "org.gnome.Mutter.DisplayConfig.GetCurrentState")
        guard let serial = state.firstMatch(of: /uint32 (\d+)/)?.1, let connector = state.firstMatch(of: /\(\('([^']+)'/)?.1,
              let mode = state.firstMatch(of: /'(\d+x\d+@[\d.]+)'/)?.1 else {
            throw TestSupportError("GNOME's display configuration is unlike any known: \(state)")
        }
        _ = try gdbus("org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig", "org.gnome.Mutter.DisplayConfig.ApplyMonitorsConfig",
                      String(serial), "1", "[(0, 0, \(scale).0, 0, true, [('\(connector)', '\(mode)', @a{sv} {})])]", "@a{sv} {}")
        try waitUntil("GNOME's monitor is at \(scale)×") {
            try gdbus("org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig", "org.gnome.Mutter.DisplayConfig.GetCurrentState")
                .contains("[(0, 0, \(scale).0,")
        }
    }

    /// A method call with `gdbus`, whose arguments are GVariant text (dbus-send has no structures).
    private func gdbus(_ destination: String, _ path: String, _ method: String, _ arguments: String...) throws -> String {
        let call = try ChildProcess.run("gdbus", arguments: ["call", "--session", "--dest", destination, "--object-path", path, "--method", method]
                                            + arguments, environment: bus.environment)
        guard call.status == .exited(0) else { throw TestSupportError("\(method) failed: \(call.standardError)") }
        return call.standardOutput
    }

    /// The dynamic loader kwin_wayland runs through (see the type's comment).
    static let loader = "/lib64/ld-linux-x86-64.so.2"

    /// Whether a client can connect to the Unix socket at `path`.
    static func accepts(_ path: String) -> Bool {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// Stops the compositor (SIGTERM, then SIGKILL if it lingers) and removes its runtime folder.
    public func stop() {
        process.signal(SIGTERM)
        if (try? process.waitForExit(timeout: .seconds(10))) == nil { process.signal(SIGKILL) }
        systemBus?.stop()
        runtime.remove()
    }

    deinit { stop() }

    // MARK: Asking the compositor

    /// Runs JavaScript in GNOME Shell (`org.gnome.Shell.Eval`, open in unsafe mode) and returns its
    /// result as JSON text.
    public func eval(_ script: String) throws -> String {
        guard kind == .gnomeShell else { throw TestSupportError("only GNOME Shell evaluates scripts, not \(kind)") }
        let result = try ChildProcess.run(
            "dbus-send", arguments: ["--session", "--print-reply", "--dest=org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Eval",
                                     "string:" + script],
            environment: bus.environment)
        // dbus-send prints `boolean true` then `string "…"`, the text as it is, quotes included.
        let reply = result.standardOutput
        guard result.status == .exited(0), reply.contains("boolean true"), let start = reply.range(of: "string \""),
              let end = reply.range(of: "\"", options: .backwards), start.upperBound <= end.lowerBound else {
            throw TestSupportError("GNOME Shell could not evaluate \(script): \(reply)\(result.standardError)")
        }
        return String(reply[start.upperBound..<end.lowerBound])
    }

    /// Runs a KWin script (`org.kde.kwin.Scripting`) and returns the lines it prints, in order.
    /// KWin writes a script's `print` on its standard error as "js: …"; each line of this run is
    /// told from others by a mark of its own, and the script's end by a last line.
    public func runKWinScript(_ script: String) throws -> [String] {
        guard kind == .kwin else { throw TestSupportError("only KWin runs KWin scripts, not \(kind)") }
        let mark = "mb-" + UUID().uuidString
        let file = runtime.appending(mark + ".js")
        try """
            function report(line) { print("\(mark) " + line); }
            \(script)
            print("\(mark) end");
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let load = try ChildProcess.run(
            "dbus-send", arguments: ["--session", "--print-reply", "--dest=org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.loadScript",
                                     "string:" + file, "string:" + mark],
            environment: bus.environment)
        guard load.status == .exited(0), let id = load.standardOutput.split(whereSeparator: \.isWhitespace).last.flatMap({ Int($0) }),
              id >= 0 else {
            throw TestSupportError("KWin did not load the script: \(load.standardOutput)\(load.standardError)")
        }
        defer {
            _ = try? ChildProcess.run("dbus-send", arguments: ["--session", "--print-reply", "--dest=org.kde.KWin", "/Scripting",
                                                               "org.kde.kwin.Scripting.unloadScript", "string:" + mark],
                                      environment: bus.environment)
        }
        let run = try ChildProcess.run("dbus-send", arguments: ["--session", "--print-reply", "--dest=org.kde.KWin", "/\(id)",
                                                                "org.kde.kwin.Script.run"],
                                       environment: bus.environment)
        guard run.status == .exited(0) else { throw TestSupportError("KWin did not run the script: \(run.standardError)") }
        try process.waitForOutput(containing: "\(mark) end", in: .standardError, timeout: .seconds(10))
        return process.standardError.split(separator: "\n").compactMap { line in
            guard let found = line.range(of: "js: \(mark) ") else { return nil }
            let text = String(line[found.upperBound...])
            return text == "end" ? nil : text
        }
    }
}

// MARK: Windows by the compositor's account

extension WaylandCompositor {
    /// A window as the compositor sees it.
    public struct ShownWindow: Decodable, Sendable, Equatable {
        public var title: String
        /// The title of the window it is transient for (attached to), or nil when it stands alone.
        public var parent: String?
        /// The compositor's own id of it.
        public var id: String
        /// Its frame on the screen: in the monitor's own pixels on GNOME (its layout is physical),
        /// in logical ones on KWin.
        public var x, y, width, height: Int
    }

    /// The windows the compositor shows, from GNOME Shell's window actors or KWin's client list.
    /// Plain mutter has no way to tell.
    public func windows() throws -> [ShownWindow] {
        let json: String
        switch kind {
        case .gnomeShell:
            json = try eval("""
                global.get_window_actors().map(a => a.meta_window).map(w => {
                    const frame = w.get_frame_rect(), parent = w.get_transient_for();
                    return {title: w.get_title() ?? "", parent: parent ? parent.get_title() : null, id: String(w.get_id()),
                            x: frame.x, y: frame.y, width: frame.width, height: frame.height};
                })
                """)
        case .kwin:
            json = try runKWinScript("""
                report(JSON.stringify(workspace.clientList().map(c => ({
                    title: c.caption, parent: c.transientFor ? c.transientFor.caption : null, id: String(c.internalId),
                    x: c.frameGeometry.x, y: c.frameGeometry.y, width: c.frameGeometry.width, height: c.frameGeometry.height}))));
                """).first ?? ""
        case .mutter:
            throw TestSupportError("mutter alone tells nobody which windows it shows")
        }
        return try Self.decoded(json, as: [ShownWindow].self, what: "\(kind)'s windows")
    }

    /// Waits until the compositor shows a window whose title starts with `prefix`, and returns it.
    public func window(titled prefix: String, timeout: Duration = .seconds(20)) throws -> ShownWindow {
        try Self.first("\(kind) shows a window titled \(prefix)…", timeout: timeout, of: windows) { $0.title.hasPrefix(prefix) }
    }

    /// `json` read as `type`; an error quoting it when it is not.
    static func decoded<Value: Decodable>(_ json: String, as type: Value.Type, what: String) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(json.utf8))
        } catch {
            throw TestSupportError("\(what) came unreadable (\(error)): \(json)")
        }
    }

    /// Waits until `list` holds an element that `matches`, and returns the first; on timeout the
    /// error says what the list held.
    static func first<Element>(_ description: String, timeout: Duration, of list: () throws -> [Element],
                               where matches: (Element) -> Bool) throws -> Element {
        var found: Element?
        var listed: [Element] = []
        do {
            try waitUntil(description, timeout: timeout) {
                listed = try list()
                found = listed.first(where: matches)
                return found != nil
            }
        } catch let timeout as WaitTimeout {
            throw TestSupportError("\(timeout); there were \(listed)")
        }
        return found!
    }

    /// Takes the picture of `window`'s frame, in the monitor's own pixels, through the desktop's own screenshot service — GNOME Shell's
    /// `org.gnome.Shell.Screenshot` (open in unsafe mode), KWin's `org.kde.KWin.ScreenShot2` —
    /// and saves it as PNG at `path`.
    public func screenshot(of window: ShownWindow, to path: String) throws -> Screenshot {
        switch kind {
        case .gnomeShell:
            // The shell takes the area in its interface's points, which its scale factor (the
            // monitor's) makes pixels.
            let scale = Int(try eval("imports.gi.St.ThemeContext.get_for_stage(global.stage).scale_factor")) ?? 1
            let area = [window.x, window.y, window.width, window.height].map { "int32:\($0 / scale)" }
            let shot = try ChildProcess.run(
                "dbus-send", arguments: ["--session", "--print-reply", "--dest=org.gnome.Shell.Screenshot", "/org/gnome/Shell/Screenshot",
                                         "org.gnome.Shell.Screenshot.ScreenshotArea"] + area + ["boolean:false", "string:" + path],
                environment: bus.environment)
            guard shot.status == .exited(0), shot.standardOutput.contains("boolean true") else {
                throw TestSupportError("GNOME Shell took no screenshot of \(window): \(shot.standardOutput)\(shot.standardError)")
            }
            return try Screenshot.read(path, width: window.width, height: window.height)
        case .kwin:
            let frame = [window.x, window.y, window.width, window.height].map(String.init)
            let shot = try ChildProcess.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("kwin-screenshot.py")] + frame + [path],
                                            environment: bus.environment)
            let size = shot.standardOutput.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            guard shot.status == .exited(0), size.count == 2 else {
                throw TestSupportError("KWin took no screenshot: \(shot.standardOutput)\(shot.standardError)")
            }
            return try Screenshot.read(path, width: size[0], height: size[1])
        case .mutter:
            throw TestSupportError("mutter alone has no screenshot service (its screen casts need PipeWire)")
        }
    }
}

// MARK: GNOME Shell's notifications

extension WaylandCompositor {
    /// A notification in GNOME Shell's message tray.
    public struct TrayNotification: Decodable, Sendable, Equatable {
        public var title: String
        public var body: String
        /// The labels of its buttons, in order.
        public var actions: [String]
    }

    /// GNOME Shell's notification service (`gjs …/org.gnome.Shell.Notifications`, which a desktop's
    /// bus starts on demand): it owns `org.freedesktop.Notifications` and passes each notification
    /// to the shell, and the shell's answers back to the sender. Returned once it owns the name.
    public func notificationService() throws -> ChildProcess {
        guard kind == .gnomeShell else { throw TestSupportError("only GNOME Shell has GNOME Shell's notification service, not \(kind)") }
        let service = try ChildProcess.launch("gjs", arguments: ["/usr/share/gnome-shell/org.gnome.Shell.Notifications"],
                                              environment: bus.environment.merging(environment) { $1 })
        try waitUntil("GNOME Shell's notification service owns org.freedesktop.Notifications", timeout: .seconds(15)) {
            guard service.isRunning else { throw TestSupportError("GNOME Shell's notification service ended\n\(service.transcript)") }
            return try bus.listNames().contains("org.freedesktop.Notifications")
        }
        return service
    }

    /// The notifications in GNOME Shell's message tray, oldest source first.
    public func notifications() throws -> [TrayNotification] {
        let json = try eval("""
            Main.messageTray.getSources().flatMap(source => source.notifications)
                .map(n => ({title: n.title ?? "", body: n.bannerBodyText ?? "", actions: n.actions.map(action => action.label)}))
            """)
        return try Self.decoded(json, as: [TrayNotification].self, what: "GNOME Shell's notifications")
    }

    /// Waits until GNOME Shell's tray holds a notification whose title starts with `prefix`.
    public func notification(titled prefix: String, timeout: Duration = .seconds(20)) throws -> TrayNotification {
        try Self.first("GNOME Shell shows a notification titled \(prefix)…", timeout: timeout, of: notifications) { $0.title.hasPrefix(prefix) }
    }

    /// Presses the button labelled `label` of the notification titled `prefix`…, as a person
    /// would in its banner: the shell's own banner of it is made and its button clicked, which
    /// runs the shell's action for it (and takes the notification away unless it is resident).
    /// Without a label, clicks the notification itself: the shell's default action
    /// (`Notification.activate`, what a click on the banner's body runs).
    public func press(_ label: String? = nil, onNotificationTitled prefix: String) throws {
        let quoted = { (text: String) in String(decoding: try JSONEncoder().encode(text), as: UTF8.self) }
        let click = try label.map { label in
            """
            const banner = notification.source.createBanner(notification);
            const button = (banner._buttonBox?.get_children() ?? []).find(b => b.label === \(try quoted(label)));
            if (!button) return "no button";
            button.emit("clicked", 1);
            """
        } ?? "notification.activate();"
        let result = try eval("""
            (() => {
                const notification = Main.messageTray.getSources().flatMap(source => source.notifications)
                    .find(n => (n.title ?? "").startsWith(\(try quoted(prefix))));
                if (!notification) return "no notification";
                \(click)
                return "pressed";
            })()
            """)
        guard result == "\"pressed\"" else { throw TestSupportError("GNOME Shell could not press \(label ?? "the notification") on \(prefix)…: \(result)") }
    }

    /// `org.freedesktop.Notifications.GetServerInformation` of whoever owns the name on the bus:
    /// its name, vendor, version and the specification's version.
    public func notificationServerInformation() throws -> [String] {
        let reply = try ChildProcess.run(
            "dbus-send", arguments: ["--session", "--print-reply", "--dest=org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                     "org.freedesktop.Notifications.GetServerInformation"],
            environment: bus.environment)
        guard reply.status == .exited(0) else { throw TestSupportError("GetServerInformation failed: \(reply.standardError)") }
        return reply.standardOutput.split(separator: "\n").compactMap { line in
            let line = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("string \""), line.hasSuffix("\"") else { return nil }
            return String(line.dropFirst("string \"".count).dropLast())
        }
    }
}
