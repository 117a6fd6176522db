/// The objects a connection serves, and the standard interfaces every one of them answers:
/// `Introspectable`, `Properties` and `Peer`. Unknown objects, interfaces, methods and wrong
/// signatures get the standard D-Bus errors.
struct ObjectTable {
    private(set) var objects: [ObjectPath: ExportedObject] = [:]
    /// Paths promised to objects not exported yet, with the calls that came for them meanwhile.
    private var held: [ObjectPath: [BusMessage]] = [:]
    /// The interfaces promised objects will serve, whose methods' limits the held calls are read within.
    private var promised: [ObjectPath: [ExportedInterface]] = [:]

    /// Calls held for one promised path at most: a peer cannot grow the queue while a service
    /// starts; beyond it, callers are told to try again.
    static let heldCallLimit = 256

    /// Method calls for `path` wait (in order) until an object is exported there, instead of
    /// failing with `UnknownObject`; each is read within the limits of its method in `interfaces`.
    mutating func hold(callsFor path: ObjectPath, interfaces: [ExportedInterface]) {
        guard objects[path] == nil, held[path] == nil else { return }
        held[path] = []
        promised[path] = interfaces
    }

    /// Serves `object`; returns the calls that were held for its path, oldest first.
    mutating func export(_ object: ExportedObject) -> [BusMessage] {
        objects[object.path] = object
        promised[object.path] = nil
        return held.removeValue(forKey: object.path) ?? []
    }

    /// The limits a call's arguments are read within: those its method declares (found as
    /// `dispatch` finds it), ``ArgumentLimits/standard`` for any other call.
    func limits(path: ObjectPath?, interface: InterfaceName?, member: MemberName?) -> ArgumentLimits {
        guard let path, let member, let interfaces = objects[path]?.interfaces ?? promised[path] else { return .standard }
        let method = interfaces.lazy.filter { interface == nil || $0.name == interface }.compactMap { candidate in
            candidate.methods.first { $0.name == member }
        }.first
        return method?.limits ?? .standard
    }

    mutating func unexport(_ path: ObjectPath) {
        objects[path] = nil
    }

    /// Keeps `call` when it is for a promised path (see `hold(callsFor:)`): `taken` then, with the
    /// error to send when the queue is full. Kept apart from `handle`, which must not hold the table
    /// exclusively while handlers run.
    mutating func takeIfPromised(_ call: BusMessage) -> (taken: Bool, refusal: Outgoing?) {
        guard let path = call.path, let count = held[path]?.count, !Self.isPeer(call) else { return (false, nil) }
        guard count < Self.heldCallLimit else {
            let address = ReplyAddress(serial: call.serial, sender: call.sender)
            return (true, call.expectsReply ? .error(address, BusError(.limitsExceeded, "\(path) is still starting; try again")) : nil)
        }
        held[path]?.append(call)
        return (true, nil)
    }

    /// Answers a method call: an immediate answer to send, or `nil` when a handler took it over or
    /// the caller wants no reply.
    func handle(_ call: BusMessage, connection core: ConnectionCore) -> Outgoing? {
        if let path = call.path, !Self.isPeer(call), !Self.isIntrospection(call), let admit = objects[path]?.admit {
            // The table as it is now answers once the caller is admitted (on the connection's thread).
            let table = self
            admit(call) { refusal in
                let answer = refusal.map { error in
                    call.expectsReply ? Outgoing.error(ReplyAddress(serial: call.serial, sender: call.sender), error) : nil
                } ?? table.answer(call, core: core)
                if let answer { _ = core.send(answer) }
            }
            return nil
        }
        return answer(call, core: core)
    }

    private func answer(_ call: BusMessage, core: ConnectionCore) -> Outgoing? {
        let address = ReplyAddress(serial: call.serial, sender: call.sender)
        let answer = dispatch(call, core: core)
        guard call.expectsReply, let answer else { return nil }
        switch answer {
        case .values(let values): return .reply(address, ValueArguments(values))
        case .error(let error): return .error(address, error)
        }
    }

    private enum Answer {
        case values([DBusValue])
        case error(BusError)
    }

    private func dispatch(_ call: BusMessage, core: ConnectionCore) -> Answer? {
        guard let path = call.path, let member = call.member else { return .error(.failed("a method call needs a path and a member")) }
        let interface = call.interface

        if Self.isPeer(call) {
            return peer(member, call)
        }
        if Self.isIntrospection(call) {
            guard member == "Introspect" else { return .error(BusError(.unknownMethod, "no method \(member) in \(InterfaceName.introspectable)")) }
            guard call.signature == .empty else { return .error(.invalidArgs("Introspect takes no arguments")) }
            let shown = objects.filter { $0.value.shownOnlyTo.map { $0 == call.sender } ?? true }
            return .values([.string(Introspection.xml(for: path, in: shown))])
        }
        guard let object = objects[path] else {
            return .error(BusError(.unknownObject, "no object at \(path)"))
        }
        if interface == .properties {
            return properties(member, call, object, core: core)
        }
        let candidates = interface.map { name in object.interfaces.filter { $0.name == name } } ?? object.interfaces
        if let interface, candidates.isEmpty {
            return .error(BusError(.unknownInterface, "object \(path) has no interface \(interface)"))
        }
        for candidate in candidates {
            guard let method = candidate.methods.first(where: { $0.name == member }) else { continue }
            guard call.signature == method.inputSignature else {
                return .error(.invalidArgs(
                    "\(candidate.name).\(member) takes '\(method.inputSignature)', not '\(call.signature)'"))
            }
            let invocation = MethodInvocation(message: call, declaredReply: method.outputSignature, core: core, loop: core.loopForInvocations)
            method.handler(invocation)
            return nil
        }
        return .error(BusError(.unknownMethod, "no method \(member) in \(interface?.rawValue ?? "any interface of \(path)")"))
    }

    private static func isIntrospection(_ call: BusMessage) -> Bool {
        call.interface == .introspectable || (call.interface == nil && call.member == "Introspect")
    }

    /// `Peer` is answered by the connection, whatever objects it has.
    private static func isPeer(_ call: BusMessage) -> Bool {
        call.interface == .peer || (call.interface == nil && (call.member == "Ping" || call.member == "GetMachineId"))
    }

    private func peer(_ member: MemberName, _ call: BusMessage) -> Answer {
        guard call.signature == .empty else { return .error(.invalidArgs("\(member) takes no arguments")) }
        switch member {
        case "Ping": return .values([])
        case "GetMachineId": return .values([.string(MachineID.current)])
        default: return .error(BusError(.unknownMethod, "no method \(member) in \(InterfaceName.peer)"))
        }
    }

    private func properties(_ member: MemberName, _ call: BusMessage, _ object: ExportedObject, core: ConnectionCore) -> Answer? {
        func find(_ interfaceName: String) -> Result<ExportedInterface, BusError> {
            guard let match = object.interfaces.first(where: { $0.name.rawValue == interfaceName }) else {
                // Names from the caller are echoed cut short: an error reply must not grow with the input.
                return .failure(BusError(.unknownInterface, "object \(object.path) has no interface \(interfaceName.prefix(255))"))
            }
            return .success(match)
        }
        func property(_ interfaceName: String, _ name: String) -> Result<ExportedProperty, BusError> {
            find(interfaceName).flatMap { interface in
                guard let match = interface.properties.first(where: { $0.name.rawValue == name }) else {
                    return .failure(BusError(.unknownProperty, "\(interfaceName) has no property \(name.prefix(255))"))
                }
                return .success(match)
            }
        }
        let arguments = call.arguments
        switch (member, call.signature.rawValue) {
        case ("Get", "ss"):
            guard case .string(let interfaceName) = arguments[0], case .string(let name) = arguments[1] else { break }
            switch property(interfaceName, name) {
            case .failure(let error): return .error(error)
            case .success(let property):
                guard property.access != .write else { return .error(BusError(.accessDenied, "property \(name) is write-only")) }
                switch Self.currentValue(of: property) {
                case .success(let value): return .values([.variant(value)])
                case .failure(let error): return .error(error)
                }
            }
        case ("GetAll", "s"):
            guard case .string(let interfaceName) = arguments[0] else { break }
            switch find(interfaceName) {
            case .failure(let error): return .error(error)
            case .success(let interface):
                var entries: [DBusValue.DictionaryEntry] = []
                for property in interface.properties where property.access != .write {
                    switch Self.currentValue(of: property) {
                    case .success(let value): entries.append(.init(key: .string(property.name.rawValue), value: .variant(value)))
                    case .failure(let error): return .error(error)
                    }
                }
                return .values([.dictionary(key: .string, value: .variant, entries)])
            }
        case ("Set", "ssv"):
            guard case .string(let interfaceName) = arguments[0], case .string(let name) = arguments[1],
                  case .variant(let value) = arguments[2] else { break }
            switch property(interfaceName, name) {
            case .failure(let error): return .error(error)
            case .success(let property):
                guard property.set != nil || property.setLater != nil else {
                    return .error(BusError(.propertyReadOnly, "property \(name) is read-only"))
                }
                guard value.signature == property.signature else {
                    return .error(.invalidArgs("property \(name) is '\(property.signature)', not '\(value.signature)'"))
                }
                if let setLater = property.setLater {
                    let invocation = MethodInvocation(message: call, declaredReply: .empty, core: core, loop: core.loopForInvocations)
                    setLater(value) { error in
                        if let error { invocation.fail(error) } else { invocation.reply() }
                    }
                    return nil
                }
                guard let set = property.set else { return nil }
                do {
                    try set(value)
                    return .values([])
                } catch {
                    return .error(error)
                }
            }
        case ("Get", _), ("GetAll", _), ("Set", _):
            let expected = ["Get": "ss", "GetAll": "s", "Set": "ssv"][member.rawValue] ?? ""
            return .error(.invalidArgs("\(InterfaceName.properties).\(member) takes '\(expected)', not '\(call.signature)'"))
        default:
            break
        }
        return .error(BusError(.unknownMethod, "no method \(member) in \(InterfaceName.properties)"))
    }

    /// The getter's value, if it has the declared type and can be marshalled: getters are this
    /// process's code, but a bad value must become an error reply, not reach libdbus (which aborts
    /// on values that do not fit their container's signature).
    private static func currentValue(of property: ExportedProperty) -> Result<DBusValue, BusError> {
        let value = property.get()
        guard value.signature == property.signature else {
            return .failure(.failed("internal error: property \(property.name) is '\(property.signature)' but its getter returned '\(value.signature)'"))
        }
        do {
            try Marshalling.check([value])
        } catch {
            return .failure(.failed("internal error: property \(property.name): \(error.reason)"))
        }
        return .success(value)
    }

    /// The `PropertiesChanged` signal for `names` of an exported interface, or `nil` when none of
    /// them is announced.
    func propertiesChanged(path: ObjectPath, interface: InterfaceName, names: [MemberName]) -> SignalEmission? {
        guard let object = objects[path], let declared = object.interfaces.first(where: { $0.name == interface }) else { return nil }
        var changed: [DBusValue.DictionaryEntry] = []
        var invalidated: [String] = []
        for name in names {
            guard let property = declared.properties.first(where: { $0.name == name }) else { continue }
            switch property.changeSignal {
            case .emits:
                // A getter's value that cannot be sent is left out (see `currentValue(of:)`).
                guard case .success(let value) = Self.currentValue(of: property) else { continue }
                changed.append(.init(key: .string(name.rawValue), value: .variant(value)))
            case .invalidates: invalidated.append(name.rawValue)
            case .none: break
            }
        }
        guard !changed.isEmpty || !invalidated.isEmpty else { return nil }
        return SignalEmission(
            path: path, interface: .properties, member: "PropertiesChanged",
            arguments: [.string(interface.rawValue), .dictionary(key: .string, value: .variant, changed), .strings(invalidated)])
    }
}
