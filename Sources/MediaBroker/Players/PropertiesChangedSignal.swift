import SwiftDBus

/// The arguments of a `org.freedesktop.DBus.Properties.PropertiesChanged` signal —
/// `(s interface, a{sv} changed, as invalidated)` — read where they lie in its body.
///
/// A player sends one for every track change, and a flooding player thousands a minute (quirk 8):
/// only the few properties the tracker follows are decoded (``PlayerProperties/take(_:_:)``), and of
/// `Metadata` only the keys ``TrackMetadata`` reads, never the whole tree of values.
struct PropertiesChangedSignal {
    let interface: String
    let changed: PlayerProperties
    let invalidated: [String]

    /// `nil` unless the body is three arguments, the first a string (`s`, `o` or `g`). A second
    /// argument that is not a string-keyed dictionary changes nothing, a third that is not a list of
    /// strings invalidates nothing — as ``DBusValue``'s readers would take them. The changed
    /// properties are read only for the interface `wanted` (the tracker follows no other's).
    init?(_ body: MessageBody, readingPropertiesOf wanted: String) {
        var interface: String?
        var changed = PlayerProperties()
        var invalidated: DBusValue?
        do {
            try body.read { (reader: inout BodyReader) throws(MarshallingError) in
                interface = try? reader.value().string()
                guard interface != nil else { return }
                let isWanted = interface == wanted
                _ = try reader.entries { name, value throws(MarshallingError) in
                    if isWanted { try changed.take(name, &value) }
                }
                invalidated = try reader.value()
                if !reader.isAtEnd { invalidated = nil }
            }
        } catch {
            return nil
        }
        guard let interface, let invalidated else { return nil }
        self.interface = interface
        self.changed = changed
        self.invalidated = (try? invalidated.strings()) ?? []
    }
}
