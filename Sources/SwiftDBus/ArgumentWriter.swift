/// The arguments of a message to send, which write themselves with ``ArgumentWriter``.
///
/// Arguments given as ``DBusValue``s are written this way too. A sender of many large bodies (a
/// page of assets) writes its own types straight into the message instead, with no value tree to
/// build, check and free first.
///
/// `signature` is what ``ArgumentWriter`` must have written once `write(to:)` returns; a reply whose
/// body does not match it (a bug in the sender) is answered with `Failed` instead.
public protocol MessageArguments: Sendable {
    var signature: Signature { get }
    func write(to writer: inout ArgumentWriter)
}

/// Writes a message's arguments in the D-Bus wire format (``WireWriter``, whose string rule it
/// follows: each NUL is sent as U+FFFD); the message is then assembled around them and handed to
/// libdbus in one piece (``WireMessage``), which validates it.
///
/// Values appended with ``append(_:)`` must have passed ``Marshalling/check(_:)``, as every public
/// way of sending does. The vardict shapes — `a{sv}` and `aa{sv}` whose values are strings, 64-bit
/// integers or string arrays — are valid by construction.
public struct ArgumentWriter: ~Copyable {
    fileprivate var wire: WireWriter
    /// The signature of what this writer appended, kept as it goes: a writer can append nothing
    /// else, so it is the body's (checked against ``MessageArguments/signature``).
    private(set) var written = ""

    /// A writer that appends to `wire` (a message's header, so far).
    init(writingAfter wire: consuming WireWriter) {
        self.wire = wire
    }

    /// The bytes: the header this writer was given and the arguments after it.
    consuming func finish() -> WireWriter {
        wire
    }

    /// Appends `value` as one argument.
    public mutating func append(_ value: DBusValue) {
        wire.value(value)
        written += value.signature.rawValue
    }

    /// Appends one `a{sv}` whose entries `body` adds.
    public mutating func appendVardict(_ body: (inout VardictWriter) -> Void) {
        writeVardict(body)
        written += "a{sv}"
    }

    /// The `a{sv}` itself, without noting it in `written` (an element of `aa{sv}` is not an argument).
    private mutating func writeVardict(_ body: (inout VardictWriter) -> Void) {
        var dictionary = VardictWriter()
        swap(&dictionary.wire, &wire)
        let entries = dictionary.wire.beginArray(elementAlignment: 8)
        body(&dictionary)
        dictionary.wire.endArray(entries)
        swap(&dictionary.wire, &wire)
    }

    /// Appends one `aa{sv}`: an `a{sv}` for each element of `items`, whose entries `body` adds.
    public mutating func appendVardicts<Items: Sequence>(_ items: Items, _ body: (Items.Element, inout VardictWriter) -> Void) {
        let array = wire.beginArray(elementAlignment: 4)
        for item in items {
            writeVardict { body(item, &$0) }
        }
        wire.endArray(array)
        written += "aa{sv}"
    }
}

/// Adds the entries of one `a{sv}`; see ``ArgumentWriter``.
public struct VardictWriter: ~Copyable {
    fileprivate var wire = WireWriter(capacity: 0)

    fileprivate init() {}

    public mutating func add(_ key: String, _ value: String) {
        entry(key, "s")
        wire.string(value)
    }

    public mutating func add(_ key: String, _ value: Int64) {
        entry(key, "x")
        wire.fixed(value)
    }

    public mutating func add(_ key: String, _ values: [String]) {
        entry(key, "as")
        let array = wire.beginArray(elementAlignment: 4)
        for value in values { wire.string(value) }
        wire.endArray(array)
    }

    /// Starts one `{sv}` entry: the key, then the signature of the variant whose value follows.
    private mutating func entry(_ key: String, _ signature: StaticString) {
        wire.align(8)
        wire.string(key)
        wire.signature(signature)
    }
}

/// Arguments given as values, checked by whoever sends them (``Marshalling/check(_:)``).
struct ValueArguments: MessageArguments {
    var values: [DBusValue]

    init(_ values: [DBusValue]) { self.values = values }

    var signature: Signature { .sequence(values.map(\.signature)) }

    func write(to writer: inout ArgumentWriter) {
        for value in values { writer.append(value) }
    }
}
