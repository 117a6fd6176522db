internal import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// The bytes a received message's body takes, counted through libdbus's iterators without reading
/// the arguments: an array's length is read from its length field, never by walking its elements,
/// and a string's only up to the bound asked about. So measuring a hostile body of millions of
/// elements costs what measuring an empty one does; the work grows with the signature alone.
///
/// libdbus offers no call that tells a message's body length; the header holds it, but only
/// `dbus_message_marshal` — a copy of the whole message — shows the header.
enum BodyLength {
    /// The length of `message`'s body, exact for a body within `bound` bytes; past it, some
    /// length over `bound`.
    ///
    /// The corresponding libdbus calls are the `dbus_message_iter_*` readers and
    /// `dbus_message_iter_get_array_len`.
    static func of(_ message: OpaquePointer, upTo bound: Int) -> Int {
        var arguments = DBusMessageIter()
        guard dbus_message_iter_init(message, &arguments) != 0 else { return 0 }
        var length = 0
        repeat {
            add(&arguments, to: &length, bound: bound)
        } while length <= bound && dbus_message_iter_next(&arguments) != 0
        return length
    }

    /// Adds the value at `iterator` to `offset`, the body's length so far: its padding, then its bytes.
    /// Offsets count from the start of the body, which is 8-aligned, as the wire format's padding does.
    private static func add(_ iterator: inout DBusMessageIter, to offset: inout Int, bound: Int) {
        let type = dbus_message_iter_get_arg_type(&iterator)
        switch type {
        case cdbus_type_string, cdbus_type_object_path:
            align(&offset, 4)
            offset += 4 + text(&iterator, upTo: bound - offset) + 1
        case cdbus_type_signature:
            offset += 1 + text(&iterator, upTo: bound - offset) + 1
        case cdbus_type_array:
            align(&offset, 4)
            offset += 4
            align(&offset, alignment(of: dbus_message_iter_get_element_type(&iterator)))
            // Entering an array reads its length field and moves no further.
            var elements = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &elements)
            offset += Int(cdbus_message_iter_array_bytes(&elements))
        case cdbus_type_variant:
            var content = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &content)
            let signature = dbus_message_iter_get_signature(&content)
            offset += 1 + (signature.map { strlen($0) } ?? 0) + 1
            dbus_free(signature)
            add(&content, to: &offset, bound: bound)
        case cdbus_type_struct:
            align(&offset, 8)
            var fields = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &fields)
            repeat {
                add(&fields, to: &offset, bound: bound)
            } while offset <= bound && dbus_message_iter_next(&fields) != 0
        case cdbus_type_invalid:
            break
        default:
            let size = fixedSize(of: type)
            align(&offset, size)
            offset += size
        }
    }

    /// The length of the string at `iterator`, counted no further than `limit` bytes (and one).
    private static func text(_ iterator: inout DBusMessageIter, upTo limit: Int) -> Int {
        var pointer: UnsafePointer<CChar>?
        withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_basic(&iterator, $0) }
        guard let pointer else { return 0 }
        return strnlen(pointer, max(0, min(limit, Int.max - 1)) + 1)
    }

    /// The bytes of a fixed-size type (and so its alignment): `y`, `n`/`q`, `b`/`i`/`u`/`h`, `x`/`t`/`d`.
    private static func fixedSize(of type: Int32) -> Int {
        switch type {
        case cdbus_type_byte: 1
        case cdbus_type_int16, cdbus_type_uint16: 2
        case cdbus_type_int64, cdbus_type_uint64, cdbus_type_double: 8
        default: 4
        }
    }

    /// The alignment of an array's elements; libdbus names a struct or dictionary entry by its
    /// type code (`r`, `e`), which the signature writes as brackets.
    private static func alignment(of type: Int32) -> Int {
        switch type {
        case cdbus_type_struct, cdbus_type_dict_entry: 8
        case cdbus_type_variant, cdbus_type_signature: 1
        case cdbus_type_string, cdbus_type_object_path, cdbus_type_array: 4
        default: fixedSize(of: type)
        }
    }

    private static func align(_ offset: inout Int, _ boundary: Int) {
        offset = (offset + boundary - 1) & ~(boundary - 1)
    }
}
