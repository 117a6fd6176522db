import SwiftDBus
import BrokerCore

/// A signal's body read where it lies: of the changed properties only the few the tracker follows
/// are decoded (``PlayerProperties/take(_:_:)``), and of `Metadata` only the keys ``TrackMetadata``
/// reads, never the whole tree of values.
extension PropertiesChangedSignal {
    /// The signal, its changed properties read only for the interface `wanted`; `nil` unless the
    /// body is three arguments, the first a string (`s`, `o` or `g`). A second argument that is not
    /// a string-keyed dictionary changes nothing, a third that is not a list of strings invalidates
    /// nothing — as ``DBusValue``'s readers would take them.
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
        self.init(interface: interface, changed: changed, invalidated: (try? invalidated.strings()) ?? [])
    }
}
