internal import CDBus
@testable import SwiftDBus
import Testing

/// libdbus's own writer — its `DBusMessageIter` appending — as the reference the one writer
/// (``WireWriter``) is held to, and as an independent source of bodies for the reader's tests.
/// A string holding NUL is cut short here (C strings end at NUL): pass such values already
/// cleaned as ``WireText`` cleans them.
enum LibdbusReference {
    /// The body of a signal carrying `values`, written by libdbus's iterators.
    static func body(_ values: [DBusValue]) throws -> MessageBody {
        let message = try #require(dbus_message_new_signal("/test", "org.mediabroker.Test", "Values"))
        defer { dbus_message_unref(message) }
        try Marshalling.check(values)
        try #require(append(values, to: message))
        return try MessageBody(of: message, signature: Signature.sequence(values.map(\.signature)))
    }

    /// Appends checked values to `message`.
    static func append(_ values: [DBusValue], to message: OpaquePointer) -> Bool {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        return values.allSatisfy { append($0, to: &iterator) }
    }

    private static func basic<T: BitwiseCopyable>(_ value: T, _ type: Int32, _ iterator: inout DBusMessageIter) -> Bool {
        var copy = value
        return withUnsafeMutablePointer(to: &copy) { dbus_message_iter_append_basic(&iterator, type, $0) } != 0
    }

    private static func text(_ text: String, _ type: Int32, _ iterator: inout DBusMessageIter) -> Bool {
        text.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iterator, type, &p) != 0
        }
    }

    private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(let v): basic(v, cdbus_type_byte, &iterator)
        case .boolean(let v): basic(dbus_bool_t(v ? 1 : 0), cdbus_type_boolean, &iterator)
        case .int16(let v): basic(v, cdbus_type_int16, &iterator)
        case .uint16(let v): basic(v, cdbus_type_uint16, &iterator)
        case .int32(let v): basic(v, cdbus_type_int32, &iterator)
        case .uint32(let v): basic(v, cdbus_type_uint32, &iterator)
        case .int64(let v): basic(v, cdbus_type_int64, &iterator)
        case .uint64(let v): basic(v, cdbus_type_uint64, &iterator)
        case .double(let v): basic(v, cdbus_type_double, &iterator)
        case .string(let v): text(v, cdbus_type_string, &iterator)
        case .objectPath(let v): text(v.rawValue, cdbus_type_object_path, &iterator)
        case .signature(let v): text(v.rawValue, cdbus_type_signature, &iterator)
        case .array(let element, let items):
            container(cdbus_type_array, element.rawValue, &iterator) { sub in items.allSatisfy { append($0, to: &sub) } }
        case .dictionary(let key, let valueType, let entries):
            container(cdbus_type_array, "{" + key.rawValue + valueType.rawValue + "}", &iterator) { sub in
                entries.allSatisfy { entry in
                    container(cdbus_type_dict_entry, nil, &sub) { append(entry.key, to: &$0) && append(entry.value, to: &$0) }
                }
            }
        case .structure(let fields):
            container(cdbus_type_struct, nil, &iterator) { sub in fields.allSatisfy { append($0, to: &sub) } }
        case .variant(let inner):
            container(cdbus_type_variant, inner.signature.rawValue, &iterator) { append(inner, to: &$0) }
        }
    }

    private static func container(
        _ type: Int32, _ signature: String?, _ iterator: inout DBusMessageIter, _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var sub = DBusMessageIter()
        let opened = signature.map { text in text.withCString { dbus_message_iter_open_container(&iterator, type, $0, &sub) } }
            ?? dbus_message_iter_open_container(&iterator, type, nil, &sub)
        guard opened != 0 else { return false }
        guard body(&sub) else {
            dbus_message_iter_abandon_container(&iterator, &sub)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &sub) != 0
    }
}
