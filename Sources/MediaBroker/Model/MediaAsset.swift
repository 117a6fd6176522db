/// Microseconds since the Unix epoch (UTC) — the contract's unit for every instant on the wire.
public typealias Microseconds = Int64

/// One GenericMedia item as the broker records it: what was heard, from which app, and when.
///
/// Strings are never empty: an empty value is stored as `nil` (the contract's "absent key").
public struct MediaAsset: Sendable, Hashable {
    /// Where an asset came from, as the contract's `source` key spells it.
    public struct Source: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let mpris = Source(rawValue: "mpris")
        public static let donation = Source(rawValue: "donation")
    }

    /// What kind of media it was, when the metadata tells; never a guess.
    public struct Kind: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let music = Kind(rawValue: "music")
        public static let podcast = Kind(rawValue: "podcast")
        public static let audiobook = Kind(rawValue: "audiobook")
        public static let video = Kind(rawValue: "video")
    }

    /// The fields live in one object shared by copies until one is changed (copy on write): an
    /// asset is copied about ten times between a finished listen and its `MediaAdded`, and each
    /// copy of thirteen fields cost a reference count per string — each an atomic instruction
    /// (issue 7). Now a copy is one count.
    private var storage: Storage

    /// Identifier in the store; `nil` until the asset has been stored.
    public var id: Int64? {
        get { storage.id }
        set { writableStorage().id = newValue }
    }
    public var title: String {
        get { storage.title }
        set { writableStorage().title = newValue }
    }
    public var artists: [String] {
        get { storage.artists }
        set { writableStorage().artists = newValue }
    }
    public var album: String? {
        get { storage.album }
        set { writableStorage().album = newValue }
    }
    public var appID: String {
        get { storage.appID }
        set { writableStorage().appID = newValue }
    }
    public var appName: String? {
        get { storage.appName }
        set { writableStorage().appName = newValue }
    }
    public var appIcon: String? {
        get { storage.appIcon }
        set { writableStorage().appIcon = newValue }
    }
    public var started: Microseconds {
        get { storage.started }
        set { writableStorage().started = newValue }
    }
    public var ended: Microseconds {
        get { storage.ended }
        set { writableStorage().ended = newValue }
    }
    public var listened: Microseconds {
        get { storage.listened }
        set { writableStorage().listened = newValue }
    }
    public var length: Microseconds? {
        get { storage.length }
        set { writableStorage().length = newValue }
    }
    public var kind: Kind? {
        get { storage.kind }
        set { writableStorage().kind = newValue }
    }
    public var source: Source {
        get { storage.source }
        set { writableStorage().source = newValue }
    }

    public init(
        id: Int64? = nil, title: String, artists: [String] = [], album: String? = nil,
        appID: String, appName: String? = nil, appIcon: String? = nil,
        started: Microseconds, ended: Microseconds, listened: Microseconds,
        length: Microseconds? = nil, kind: Kind? = nil, source: Source
    ) {
        storage = Storage(
            id: id, title: title, artists: artists, album: album, appID: appID, appName: appName, appIcon: appIcon,
            started: started, ended: ended, listened: listened, length: length, kind: kind, source: source)
    }

    /// The storage, copied first if another asset shares it.
    private mutating func writableStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    // @unchecked Sendable: the storage is written only through `writableStorage()`, that is only
    // after `isKnownUniquelyReferenced` showed this asset holds the only reference — so no other
    // asset, on any thread, can be reading it.
    private final class Storage: @unchecked Sendable {
        var id: Int64?
        var title: String
        var artists: [String]
        var album: String?
        var appID: String
        var appName: String?
        var appIcon: String?
        var started: Microseconds
        var ended: Microseconds
        var listened: Microseconds
        var length: Microseconds?
        var kind: Kind?
        var source: Source

        init(
            id: Int64?, title: String, artists: [String], album: String?, appID: String, appName: String?,
            appIcon: String?, started: Microseconds, ended: Microseconds, listened: Microseconds,
            length: Microseconds?, kind: Kind?, source: Source
        ) {
            self.id = id
            self.title = title
            self.artists = artists
            self.album = album
            self.appID = appID
            self.appName = appName
            self.appIcon = appIcon
            self.started = started
            self.ended = ended
            self.listened = listened
            self.length = length
            self.kind = kind
            self.source = source
        }

        func copy() -> Storage {
            Storage(
                id: id, title: title, artists: artists, album: album, appID: appID, appName: appName, appIcon: appIcon,
                started: started, ended: ended, listened: listened, length: length, kind: kind, source: source)
        }
    }

    public static func == (a: MediaAsset, b: MediaAsset) -> Bool {
        let x = a.storage, y = b.storage
        return x === y
            || (x.id == y.id && x.title == y.title && x.artists == y.artists && x.album == y.album
                && x.appID == y.appID && x.appName == y.appName && x.appIcon == y.appIcon
                && x.started == y.started && x.ended == y.ended && x.listened == y.listened
                && x.length == y.length && x.kind == y.kind && x.source == y.source)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(title)
        hasher.combine(artists)
        hasher.combine(album)
        hasher.combine(appID)
        hasher.combine(appName)
        hasher.combine(appIcon)
        hasher.combine(started)
        hasher.combine(ended)
        hasher.combine(listened)
        hasher.combine(length)
        hasher.combine(kind)
        hasher.combine(source)
    }

    /// All artists joined with `", "`, as the contract's `artist` key.
    public var artist: String? { artists.isEmpty ? nil : artists.joined(separator: ", ") }
}
