import SwiftDBus
import BrokerCore

/// A `PickMedia` request's object, exactly as xdg-desktop-portal's requests are:
/// `org.freedesktop.portal.Request` with `Close()` and the `Response` signal.
enum RequestObject {
    static let interface: InterfaceName = "org.freedesktop.portal.Request"
    static let response: MemberName = "Response"

    /// The object at `path`; `close` runs when its caller calls `Close()` (anyone else is refused).
    static func make(path: ObjectPath, caller: String, close: @escaping @Sendable () -> Void) -> ExportedObject {
        let interface = ExportedInterface(
            name: interface,
            methods: [ExportedMethod("Close") { call in
                close()
                call.reply()
            }],
            signals: [ExportedSignal(response, arguments: [Argument("response", .uint32), Argument("results", .vardict)])])
        // Introspection lists a request to its caller alone: its path names the caller and its token.
        return ExportedObject(path: path, interfaces: [interface], shownOnlyTo: caller) { call, done in
            done(call.sender == caller ? nil : BusError(.brokerAccessDenied, "only the app that asked may close its request"))
        }
    }

    static func response(_ response: PickResponse, path: ObjectPath, caller: String, localTime: LocalTime) -> SignalEmission {
        SignalEmission(path: path, interface: interface, member: self.response,
                       arguments: [.uint32(response.code), .vardict(response.results(localTime: localTime))],
                       destination: try? BusName(caller))
    }
}
