internal import CDBus

/// Empty signals built once per path, interface and member, and copied for each emission.
///
/// `dbus_message_copy` of an empty signal costs ~1.3k instructions; `dbus_message_new_signal`,
/// which checks the three names again and writes the header field by field, ~8.1k (callgrind).
/// For signals whose arguments are values (a body that writes itself goes through ``WireMessage``
/// instead). A copy is a new message in every respect — its own serial, unlocked — and the
/// template is never sent, so it never changes.
///
/// Owns its template messages (unreferenced when it goes); kept by ``ConnectionCore`` and used
/// only on its loop's thread.
struct SignalTemplates: ~Copyable {
    private struct Template {
        let path: String
        let interface: String
        let member: String
        let message: OpaquePointer
    }

    /// A daemon emits a handful of distinct signals; past this, signals are built afresh.
    static let capacity = 16

    private var templates: [Template] = []

    init() {}

    deinit {
        for template in templates { dbus_message_unref(template.message) }
    }

    /// A new signal without arguments; `nil` only when memory runs out.
    ///
    /// Looked up by comparing strings, not hashing them: the names of a daemon's signals are
    /// usually the same string instances every time, which compare at once.
    mutating func newSignal(path: ObjectPath, interface: InterfaceName, member: MemberName) -> OpaquePointer? {
        for template in templates
        where template.member == member.rawValue && template.interface == interface.rawValue && template.path == path.rawValue {
            return dbus_message_copy(template.message)
        }
        guard let message = dbus_message_new_signal(path.rawValue, interface.rawValue, member.rawValue) else { return nil }
        guard templates.count < Self.capacity else { return message }
        templates.append(Template(path: path.rawValue, interface: interface.rawValue, member: member.rawValue, message: message))
        return dbus_message_copy(message)
    }
}
