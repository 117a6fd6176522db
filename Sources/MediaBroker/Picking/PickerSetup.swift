internal import Glibc

/// Where the broker finds its picker and what it hands it: the executable (next to
/// `media-broker` unless `--picker` names another), the environment it runs in — the broker's
/// own, so the graphical session's `DISPLAY` or `WAYLAND_DISPLAY` reach it as they reached the
/// broker — and the bus it reads the history on.
struct PickerSetup: Sendable {
    var path: String
    var environment: [String: String]
    var busAddress: String?

    init(path: String, environment: [String: String]) {
        self.path = path
        self.environment = environment
        busAddress = environment["DBUS_SESSION_BUS_ADDRESS"] ?? environment["DBUS_STARTER_ADDRESS"]
            ?? environment["XDG_RUNTIME_DIR"].map { "unix:path=\($0)/bus" }
    }

    /// Why no window can be shown, or `nil` when the environment names a display.
    var missingDisplay: String? {
        let display = environment["WAYLAND_DISPLAY"] ?? environment["DISPLAY"]
        guard display?.isEmpty ?? true else { return nil }
        return "the broker has no graphical session to show the picker on: neither WAYLAND_DISPLAY nor DISPLAY is in its "
            + "environment (a desktop passes them with `dbus-update-activation-environment --systemd DISPLAY WAYLAND_DISPLAY`)"
    }

    /// Why the picker cannot be started, or `nil` when its executable is there.
    var missingPicker: String? {
        guard access(path, X_OK) != 0 else { return nil }
        return "no picker to show: \(path) is not installed (it comes in the media-broker-picker package)"
    }

    /// `media-broker-picker` beside the running executable.
    static func besideExecutable(environment: [String: String]) -> PickerSetup {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let folder = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "/usr/bin"
        return PickerSetup(path: folder + "/media-broker-picker", environment: environment)
    }
}
