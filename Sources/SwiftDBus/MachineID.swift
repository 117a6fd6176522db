internal import CDBus

/// The machine's D-Bus id, for `org.freedesktop.DBus.Peer.GetMachineId`.
enum MachineID {
    /// The corresponding libdbus call is `dbus_try_get_local_machine_id`.
    static let current: String = {
        guard let raw = dbus_try_get_local_machine_id(nil) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }()
}
