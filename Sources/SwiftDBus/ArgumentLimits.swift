/// What a method call's arguments may hold, checked as the call arrives, so that a peer cannot
/// make this process work or allocate in proportion to what it sends: the bytes of the body,
/// counted before the body is copied out of libdbus or decoded (``BodyLength``), and, as it is
/// decoded, the elements of any one array and how deep values nest (``WireCursor``). A call beyond
/// them is answered `InvalidArgs` and never reaches its handler.
public struct ArgumentLimits: Sendable, Hashable {
    /// The most bytes the arguments may take on the wire (the message's body).
    public var bytes: Int
    /// The most elements, or dictionary entries, any one array may hold.
    public var elements: Int
    /// The most containers around any value, counted as D-Bus counts them: an array, a dictionary
    /// entry, a struct and a variant are one each. D-Bus itself allows 64.
    public var depth: Int

    public init(bytes: Int, elements: Int = ArgumentLimits.standard.elements, depth: Int = ArgumentLimits.standard.depth) {
        self.bytes = bytes
        self.elements = elements
        self.depth = depth
    }

    /// For every call whose method declares no limits, the standard interfaces' included: their
    /// arguments are names of at most 255 bytes, and an ordinary method's options take a few
    /// kilobytes, so a call of megabytes is a peer abusing the service.
    public static let standard = ArgumentLimits(bytes: 64 << 10, elements: 4096, depth: 16)

    /// D-Bus's own bounds and no others: what replies and signals are read within (this connection
    /// asked for them), and what a method that must take anything D-Bus carries declares.
    public static let dbus = ArgumentLimits(bytes: .max, elements: .max, depth: Marshalling.maximumDepth)
}
