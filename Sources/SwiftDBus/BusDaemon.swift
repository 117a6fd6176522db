/// Calls to the message bus itself (`org.freedesktop.DBus`).
extension BusConnection {
    public static let busName: BusName = "org.freedesktop.DBus"
    public static let busPath: ObjectPath = "/org/freedesktop/DBus"

    /// Calls a method of the bus daemon.
    public func callBus(_ member: MemberName, _ arguments: [DBusValue] = [], timeout: Duration = .seconds(25)) async throws(BusError) -> [DBusValue] {
        try await call(MethodCall(destination: Self.busName, path: Self.busPath, interface: .bus, member: member, arguments: arguments),
                       timeout: timeout).arguments
    }

    /// What `RequestName` answered.
    public enum NameRequestResult: UInt32, Sendable {
        case primaryOwner = 1, inQueue = 2, exists = 3, alreadyOwner = 4
    }

    /// Asks for a well-known name without queueing: if another connection has it, the answer is
    /// ``NameRequestResult/exists`` and this connection does not wait for it.
    public func requestName(_ name: BusName) async throws(BusError) -> NameRequestResult {
        let flags: UInt32 = 4 // DBUS_NAME_FLAG_DO_NOT_QUEUE, from the D-Bus specification
        let reply = try await callBus("RequestName", [.string(name.rawValue), .uint32(flags)])
        guard let code = try? reply.first?.integer(as: UInt32.self), let result = NameRequestResult(rawValue: code) else {
            throw BusError(.failed, "unexpected RequestName reply")
        }
        return result
    }

    /// Every name on the bus, unique and well-known.
    public func listNames() async throws(BusError) -> [String] {
        let reply = try await callBus("ListNames")
        guard let names = try? reply.first?.strings() else { throw BusError(.failed, "unexpected ListNames reply") }
        return names
    }

    /// The unique name that owns `name`, or `nil` when nobody does.
    public func nameOwner(of name: BusName) async throws(BusError) -> String? {
        do {
            let reply = try await callBus("GetNameOwner", [.string(name.rawValue)])
            return try? reply.first?.string()
        } catch where error.name == .nameHasNoOwner {
            return nil
        }
    }

    /// The process id behind a connection, as the bus knows it.
    public func processID(of name: String) async throws(BusError) -> UInt32 {
        let reply = try await callBus("GetConnectionUnixProcessID", [.string(name)])
        guard let pid = try? reply.first?.integer(as: UInt32.self) else { throw BusError(.failed, "unexpected GetConnectionUnixProcessID reply") }
        return pid
    }
}
