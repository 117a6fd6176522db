/// An object this connection serves, declared once as data: its interfaces' methods, properties
/// and signals. Introspection XML, `Properties` and signature checks are all derived from it.
public struct ExportedObject: Sendable {
    public var path: ObjectPath
    public var interfaces: [ExportedInterface]
    /// Decides, before any method or property call on the object runs, whether its caller may make
    /// it: given the call, it answers once, on the connection's thread — `nil` to let the call run,
    /// or the error to refuse it with. `Introspect` and `Peer` are answered without asking.
    public var admit: (@Sendable (BusMessage, _ done: @escaping @Sendable (BusError?) -> Void) -> Void)?
    /// The one peer (a unique name) that `Introspect` shows the object to, when it is that peer's
    /// own (a request whose path names its caller): to anyone else it is not there, nor listed
    /// as a child of the paths above it. Nil: shown to everyone.
    public var shownOnlyTo: String?

    public init(path: ObjectPath, interfaces: [ExportedInterface], shownOnlyTo: String? = nil,
                admit: (@Sendable (BusMessage, _ done: @escaping @Sendable (BusError?) -> Void) -> Void)? = nil) {
        self.path = path
        self.interfaces = interfaces
        self.shownOnlyTo = shownOnlyTo
        self.admit = admit
    }
}

/// One interface of an ``ExportedObject``.
public struct ExportedInterface: Sendable {
    public var name: InterfaceName
    public var methods: [ExportedMethod]
    public var properties: [ExportedProperty]
    public var signals: [ExportedSignal]
    /// Annotations of the interface element itself: its documentation, its version.
    public var annotations: [Annotation] = []

    public init(name: InterfaceName, methods: [ExportedMethod] = [], properties: [ExportedProperty] = [], signals: [ExportedSignal] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    /// An introspection document holding `interfaces` alone, as a file in
    /// `/usr/share/dbus-1/interfaces/` does: the same XML `Introspect` answers for them, without the
    /// standard interfaces or child nodes.
    public static func introspectionDocument(_ interfaces: [ExportedInterface]) -> String {
        Introspection.document(interfaces)
    }
}

/// A named, typed argument of a method or signal.
public struct Argument: Sendable, Hashable {
    public var name: String
    public var signature: Signature
    public var annotations: [Annotation]
    public init(_ name: String, _ signature: Signature, annotations: [Annotation] = []) {
        self.name = name
        self.signature = signature
        self.annotations = annotations
    }
}

/// An introspection annotation: a name and a value that tell a caller (or a binding generator)
/// more than the signature does — `org.freedesktop.DBus.Deprecated`, documentation, the keys a
/// dictionary carries.
public struct Annotation: Sendable, Hashable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A method: a call whose arguments do not match `inputs`, or go beyond `limits`, is answered with
/// `InvalidArgs` before the handler runs. The handler runs on the connection's thread and must not
/// block; it answers through the ``MethodInvocation``, now or later.
public struct ExportedMethod: Sendable {
    public var name: MemberName
    public var inputs: [Argument]
    public var outputs: [Argument]
    public var annotations: [Annotation] = []
    /// What a call's arguments may hold: a body larger than their bytes is refused before it is
    /// read. Set them from what the largest legitimate call needs, with room to spare.
    public var limits: ArgumentLimits
    public var handler: @Sendable (MethodInvocation) -> Void

    public init(
        _ name: MemberName, inputs: [Argument] = [], outputs: [Argument] = [], limits: ArgumentLimits = .standard,
        handler: @escaping @Sendable (MethodInvocation) -> Void
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.limits = limits
        self.handler = handler
    }

    /// The method with these annotations added (`org.freedesktop.DBus.Deprecated`, documentation).
    public func annotated(_ added: Annotation...) -> ExportedMethod {
        var method = self
        method.annotations += added
        return method
    }

    var inputSignature: Signature { .sequence(inputs.map(\.signature)) }
    var outputSignature: Signature { .sequence(outputs.map(\.signature)) }
}

/// A property. `get` and `set` run on the connection's thread and must not block. After a
/// change — through `Set` or otherwise — the owner calls
/// ``BusConnection/emitPropertiesChanged(path:interface:names:)``.
public struct ExportedProperty: Sendable {
    public enum Access: String, Sendable {
        case read, write, readwrite
    }

    /// How changes are announced, as the `org.freedesktop.DBus.Property.EmitsChangedSignal`
    /// annotation says.
    public enum ChangeSignal: String, Sendable {
        /// `PropertiesChanged` carries the new value.
        case emits = "true"
        /// `PropertiesChanged` names the property as invalidated, without a value.
        case invalidates
        /// Never announced.
        case none = "false"
    }

    public var name: MemberName
    public var signature: Signature
    public var access: Access
    public var changeSignal: ChangeSignal
    public var get: @Sendable () -> DBusValue
    public var set: (@Sendable (DBusValue) throws(BusError) -> Void)?
    /// A setter that answers later — for a value that must be durable before `Set` returns. It
    /// calls its second argument once: with `nil` on success, or the error to reply with.
    public var setLater: (@Sendable (DBusValue, @escaping @Sendable (BusError?) -> Void) -> Void)?
    public var annotations: [Annotation] = []

    public init(
        _ name: MemberName, signature: Signature, changeSignal: ChangeSignal = .emits,
        get: @escaping @Sendable () -> DBusValue, set: (@Sendable (DBusValue) throws(BusError) -> Void)? = nil
    ) {
        self.name = name
        self.signature = signature
        self.access = set == nil ? .read : .readwrite
        self.changeSignal = changeSignal
        self.get = get
        self.set = set
    }

    /// A read-write property whose setter answers through a completion.
    public init(
        _ name: MemberName, signature: Signature, changeSignal: ChangeSignal = .emits,
        get: @escaping @Sendable () -> DBusValue,
        setLater: @escaping @Sendable (DBusValue, @escaping @Sendable (BusError?) -> Void) -> Void
    ) {
        self.name = name
        self.signature = signature
        self.access = .readwrite
        self.changeSignal = changeSignal
        self.get = get
        self.setLater = setLater
    }

    /// The property with these annotations added.
    public func annotated(_ added: Annotation...) -> ExportedProperty {
        var property = self
        property.annotations += added
        return property
    }
}

/// A signal the object emits; declared so introspection lists it.
public struct ExportedSignal: Sendable {
    public var name: MemberName
    public var arguments: [Argument]
    public var annotations: [Annotation] = []
    public init(_ name: MemberName, arguments: [Argument] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// The signal with these annotations added.
    public func annotated(_ added: Annotation...) -> ExportedSignal {
        var signal = self
        signal.annotations += added
        return signal
    }
}
