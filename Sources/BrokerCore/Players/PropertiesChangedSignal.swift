/// The arguments of a `org.freedesktop.DBus.Properties.PropertiesChanged` signal —
/// `(s interface, a{sv} changed, as invalidated)` — as the broker's values.
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

/// A `PropertiesChanged` signal's body as the runtime received it, decoded only when the core
/// asks: a flooding player repeats one signal thousands of times a minute (quirk 8), and a repeat
/// is dropped by comparing bodies. How a D-Bus body is read: `PropertiesChangedSignal+Reading.swift`.
package protocol PropertiesChangedBody: Sendable {
    func isSame(as other: any PropertiesChangedBody) -> Bool
    /// The signal, its changed properties read only for the interface `wanted`; `nil` when the
    /// body is no such signal.
    func decoded(readingPropertiesOf wanted: String) -> PropertiesChangedSignal?
}
