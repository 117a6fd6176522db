import SwiftDBus
import BrokerCore

extension ReaderPolicy {
    /// The right a call of `member` on `interface` needs, read from the call: for
    /// `org.freedesktop.DBus.Properties`, the property it names in `arguments`.
    static func right(interface: InterfaceName?, member: String, arguments: [DBusValue]) -> Right {
        let ofProperties = interface == .properties
        let property = ofProperties && arguments.count >= 2 ? (try? arguments[1].string()) : nil
        return right(member: member, ofProperties: ofProperties, property: property)
    }
}
