/// The arguments of a `org.freedesktop.DBus.Properties.PropertiesChanged` signal —
/// `(s interface, a{sv} changed, as invalidated)` — as the broker's values. How a D-Bus body is
/// read: `PropertiesChangedSignal+Reading.swift`.
package struct PropertiesChangedSignal: Equatable, Sendable {
    let interface: String
    /// Read only for the interface the tracker follows: empty for any other.
    let changed: PlayerProperties
    let invalidated: [String]

    package init(interface: String, changed: PlayerProperties, invalidated: [String]) {
        self.interface = interface
        self.changed = changed
        self.invalidated = invalidated
    }
}
