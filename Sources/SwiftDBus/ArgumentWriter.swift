internal import CDBus

/// Arguments that write themselves into an outgoing message, for replies and signals sent often
/// enough that building a ``DBusValue`` tree first — and checking it, and freeing it — shows in a
/// profile. (MediaBroker's assets: every `MediaAdded`, every `RecentMedia` page. The tree cost more
/// than libdbus's own appending.)
///
/// `signature` is what ``ArgumentWriter`` must have written once `write(to:)` returns; a reply whose
/// body does not match it (a bug in the sender) is answered with `Failed` instead.
public protocol MessageArguments: Sendable {
    var signature: Signature { get }
    func write(to writer: inout ArgumentWriter)
}

/// Appends arguments to a message under construction, straight through libdbus's iterators.
///
/// Only shapes that are valid by construction can be written — `a{sv}` and `aa{sv}` whose values
/// are strings, 64-bit integers or string arrays — so nothing needs checking afterwards. A string
/// holding NUL, which D-Bus cannot carry, has each NUL replaced by U+FFFD rather than being cut
/// short by the C string it becomes.
///
/// The corresponding libdbus calls are `dbus_message_iter_open_container`,
/// `dbus_message_iter_append_basic` and `dbus_message_iter_close_container`; they fail only when
/// memory runs out, after which the writer appends nothing more and the message is dropped.
public struct ArgumentWriter: ~Copyable {
    fileprivate var iterator = DBusMessageIter()
    fileprivate(set) var failed = false
    /// The signature of what this writer appended, kept as it goes: a writer can append nothing
    /// else, so it is the message body's once the writer wrote into a new message — without asking
    /// libdbus, whose `dbus_message_get_signature` re-parsed the header (~4.7k instructions per
    /// `MediaAdded`; callgrind).
    fileprivate(set) var written = ""

    init(appendingTo message: OpaquePointer) {
        dbus_message_iter_init_append(message, &iterator)
    }

    fileprivate init() {}

    /// Appends one `a{sv}` whose entries `body` adds.
    public mutating func appendVardict(_ body: (inout VardictWriter) -> Void) {
        guard !failed else { return }
        writeVardict(body)
        written += "a{sv}"
    }

    /// The `a{sv}` itself, without noting it in `written` (an element of `aa{sv}` is not an argument).
    private mutating func writeVardict(_ body: (inout VardictWriter) -> Void) {
        var dictionary = VardictWriter()
        guard open(cdbus_type_array, "{sv}", &iterator, &dictionary.iterator) else {
            failed = true
            return
        }
        body(&dictionary)
        if !close(&iterator, &dictionary.iterator, abandoning: dictionary.failed) { failed = true }
    }

    /// Appends one `aa{sv}`: an `a{sv}` for each element of `items`, whose entries `body` adds.
    public mutating func appendVardicts<Items: Sequence>(_ items: Items, _ body: (Items.Element, inout VardictWriter) -> Void) {
        guard !failed else { return }
        var array = ArgumentWriter()
        guard open(cdbus_type_array, "a{sv}", &iterator, &array.iterator) else {
            failed = true
            return
        }
        for item in items where !array.failed {
            array.writeVardict { body(item, &$0) }
        }
        if !close(&iterator, &array.iterator, abandoning: array.failed) { failed = true }
        written += "aa{sv}"
    }
}

/// Adds the entries of one `a{sv}`; see ``ArgumentWriter``. Keys are static strings, which are
/// already NUL-terminated C strings.
public struct VardictWriter: ~Copyable {
    fileprivate var iterator = DBusMessageIter()
    fileprivate(set) var failed = false

    fileprivate init() {}

    public mutating func add(_ key: StaticString, _ value: String) {
        entry(key, "s") { variant in appendString(value, to: &variant) }
    }

    public mutating func add(_ key: StaticString, _ value: Int64) {
        entry(key, "x") { variant in
            var copy = value
            return dbus_message_iter_append_basic(&variant, cdbus_type_int64, &copy) != 0
        }
    }

    public mutating func add(_ key: StaticString, _ values: [String]) {
        entry(key, "as") { variant in
            var array = DBusMessageIter()
            guard open(cdbus_type_array, "s", &variant, &array) else { return false }
            for value in values where !appendString(value, to: &array) {
                dbus_message_iter_abandon_container(&variant, &array)
                return false
            }
            return dbus_message_iter_close_container(&variant, &array) != 0
        }
    }

    /// One `{sv}` entry: the key, then a variant of `signature` whose content `value` appends.
    private mutating func entry(_ key: StaticString, _ signature: StaticString, _ value: (inout DBusMessageIter) -> Bool) {
        guard !failed else { return }
        var pair = DBusMessageIter()
        guard dbus_message_iter_open_container(&iterator, cdbus_type_dict_entry, nil, &pair) != 0 else {
            failed = true
            return
        }
        var variant = DBusMessageIter()
        var keyPointer: UnsafePointer<CChar>? = UnsafeRawPointer(key.utf8Start).assumingMemoryBound(to: CChar.self)
        guard dbus_message_iter_append_basic(&pair, cdbus_type_string, &keyPointer) != 0,
              open(cdbus_type_variant, signature, &pair, &variant) else {
            dbus_message_iter_abandon_container(&iterator, &pair)
            failed = true
            return
        }
        let appended = value(&variant)
        if !close(&pair, &variant, abandoning: !appended) || !close(&iterator, &pair, abandoning: false) { failed = true }
    }
}

/// Opens a container whose contents' signature is the static string `signature`.
private func open(_ type: Int32, _ signature: StaticString, _ parent: inout DBusMessageIter, _ child: inout DBusMessageIter) -> Bool {
    let text = UnsafeRawPointer(signature.utf8Start).assumingMemoryBound(to: CChar.self)
    return dbus_message_iter_open_container(&parent, type, text, &child) != 0
}

/// Closes `child`, or abandons it (when what went into it failed); `false` unless it was closed.
private func close(_ parent: inout DBusMessageIter, _ child: inout DBusMessageIter, abandoning: Bool) -> Bool {
    if abandoning {
        dbus_message_iter_abandon_container(&parent, &child)
        return false
    }
    return dbus_message_iter_close_container(&parent, &child) != 0
}

/// Appends `text` as a D-Bus string; NULs become U+FFFD (see ``ArgumentWriter``).
private func appendString(_ text: String, to iterator: inout DBusMessageIter) -> Bool {
    let holdsNUL = text.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? text.utf8.contains(0)
    let clean = holdsNUL
        ? String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
        : text
    return clean.withCString { pointer in
        var pointer: UnsafePointer<CChar>? = pointer
        return dbus_message_iter_append_basic(&iterator, cdbus_type_string, &pointer) != 0
    }
}

extension MessageArguments {
    /// Builds the body of `message`, a new message without arguments, from these arguments; `false`
    /// when libdbus ran out of memory or what was written does not match `signature`.
    func append(to message: OpaquePointer) -> Bool {
        var writer = ArgumentWriter(appendingTo: message)
        write(to: &writer)
        return !writer.failed && writer.written == signature.rawValue
    }
}
