/// Which signals to receive: the bus delivers what any of the connection's rules match, and the
/// connection hands each message to the handlers whose rules match it.
///
/// The bus's match-rule syntax is described in the D-Bus specification, "Match Rules".
public struct MatchRule: Sendable, Hashable, CustomStringConvertible {
    public var sender: BusName?
    public var interface: InterfaceName?
    public var member: MemberName?
    public var path: ObjectPath?
    public var pathNamespace: ObjectPath?
    /// The first argument, when it is a string (e.g. the name in `NameOwnerChanged`).
    public var arg0: String?
    /// Only messages addressed to this name (used for unicast signals); rarely needed.
    public var destination: BusName?

    public init(
        sender: BusName? = nil, interface: InterfaceName? = nil, member: MemberName? = nil,
        path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil, arg0: String? = nil,
        destination: BusName? = nil
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arg0 = arg0
        self.destination = destination
    }

    /// The rule as the bus's `AddMatch` takes it, e.g. `type='signal',member='NameOwnerChanged'`.
    public var description: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            guard let value else { return }
            // Inside quotes only the quote itself needs escaping: close, escaped quote, reopen.
            parts.append("\(key)='\(value.replacingOccurrences(of: "'", with: "'\\''"))'")
        }
        add("sender", sender?.rawValue)
        add("interface", interface?.rawValue)
        add("member", member?.rawValue)
        add("path", path?.rawValue)
        add("path_namespace", pathNamespace?.rawValue)
        add("destination", destination?.rawValue)
        add("arg0", arg0)
        return parts.joined(separator: ",")
    }

    /// Whether a received signal fits this rule, judged from its header and first argument.
    ///
    /// A well-known `sender` cannot be checked here — the message carries the owner's unique
    /// name — so it is left to the bus; a unique `sender` is checked.
    func matches(_ message: BusMessage) -> Bool {
        guard message.kind == .signal else { return false }
        if let sender, sender.isUnique, message.sender != sender.rawValue { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let path, message.path != path { return false }
        if let pathNamespace, let messagePath = message.path {
            let prefix = pathNamespace.rawValue
            let candidate = messagePath.rawValue
            let inside = prefix == "/" || candidate == prefix || candidate.hasPrefix(prefix + "/")
            if !inside { return false }
        }
        if let arg0 {
            guard case .string(let first)? = message.firstArgument, first == arg0 else { return false }
        }
        return true
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
