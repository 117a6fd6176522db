/// The twin rule (quirk 14, and one app on several connections): the same song heard on two
/// players at overlapping times is one listen. A finished listen is a twin — and is not recorded —
/// when
/// - a listen of the same song from another player that overlaps it in time was already recorded
///   (the first to finish is counted), or
/// - it comes from a proxy (a mirror of media that plays elsewhere: KDE Connect, a browser
///   extension's copy) while a player that is no proxy still plays the same song over an
///   overlapping time: the original is preferred, and counted when it ends.
///
/// "The same song" is the same title, with album and artists agreeing where both have them — not
/// the track id or URL, which a mirror makes up for itself. Overlap is strict: a song played again
/// after the first play ended (even on a restarted player, quirk 15) is a new listen.
///
/// Pure: the caller says what was recorded (``remember(_:from:)``) and what plays now.
struct TwinRule {
    /// Recorded listens remembered: at most this many, and none that ended more than
    /// ``memorySpan`` ago.
    static let maximumRemembered = 512
    static let memorySpan: Microseconds = 3_600_000_000

    /// A listen in progress on another player, as the rule weighs it.
    package struct Playing {
        var listen: Listen
        var isProxy: Bool
    }

    private var remembered = TwinMemory(capacity: TwinRule.maximumRemembered)

    /// Whether `listen`, finished now on `player`, is a twin and must not be recorded.
    /// `othersPlaying` (the other players' listens in progress) is asked only for a proxy.
    mutating func isTwin(_ listen: Listen, from player: String, isProxy: Bool, at now: Microseconds,
                         othersPlaying: () -> [Playing]) -> Bool {
        remembered.forget(endedBefore: Clock.add(now, -Self.memorySpan))
        let twinRecorded = remembered.contains(title: listen.metadata.title) { other in
            other.player != player && Self.sameSong(other.metadata, listen.metadata)
                && other.started < listen.ended && listen.started < other.ended
        }
        if twinRecorded { return true }
        guard isProxy else { return false }
        return othersPlaying().contains { other in
            !other.isProxy && Self.sameSong(other.listen.metadata, listen.metadata)
                && other.listen.started < listen.ended && listen.started < now
        }
    }

    /// `listen`, from `player`, was recorded.
    mutating func remember(_ listen: Listen, from player: String) {
        remembered.append(RememberedListen(player: player, metadata: listen.metadata, started: listen.started, ended: listen.ended))
    }

    static func sameSong(_ a: TrackMetadata, _ b: TrackMetadata) -> Bool {
        guard let title = a.title, title == b.title else { return false }
        if let x = a.album, let y = b.album, x != y { return false }
        return a.artists.isEmpty || b.artists.isEmpty || a.artists == b.artists
    }
}

/// A listen the twin rule remembers: who played what, when.
struct RememberedListen {
    let player: String
    let metadata: TrackMetadata
    let started: Microseconds
    let ended: Microseconds
}

/// The recorded listens the twin rule compares a finished listen with (see
/// ``TwinRule``): at most `capacity`, the oldest dropped first, indexed by title.
///
/// Two listens are only ever the same song when their titles are equal, so a listen whose title
/// none of the remembered ones has — nearly every listen — is told apart with one hash of its
/// title instead of a scan of every remembered listen. Expiry likewise looks at the listens only
/// when the earliest end it knows of is past the cutoff.
struct TwinMemory {
    private var ring: RecentItems<RememberedListen>
    /// How many remembered listens have each title (listens without one are never a twin).
    private var titles: [String: Int] = [:]
    /// At most the earliest `ended` of the listens remembered (`.max` when there are none); lower
    /// once the listen that had it was dropped, which only costs one needless look.
    private var earliestEnd: Microseconds = .max

    init(capacity: Int) {
        ring = RecentItems(capacity: capacity)
    }

    /// Oldest first.
    var items: [RememberedListen] { ring.items }

    mutating func append(_ listen: RememberedListen) {
        if let dropped = ring.append(listen) { uncount(dropped.metadata.title) }
        if let title = listen.metadata.title { titles[title, default: 0] += 1 }
        earliestEnd = min(earliestEnd, listen.ended)
    }

    /// Drops the listens that ended before `cutoff`.
    mutating func forget(endedBefore cutoff: Microseconds) {
        guard earliestEnd < cutoff else { return }
        ring.removeAll { $0.ended < cutoff }
        titles.removeAll(keepingCapacity: true)
        earliestEnd = .max
        for listen in ring.items {
            if let title = listen.metadata.title { titles[title, default: 0] += 1 }
            earliestEnd = min(earliestEnd, listen.ended)
        }
    }

    /// Whether a remembered listen titled `title` `matches`; `false` without a title.
    func contains(title: String?, where matches: (RememberedListen) -> Bool) -> Bool {
        guard let title, titles[title] != nil else { return false }
        return ring.contains(where: matches)
    }

    private mutating func uncount(_ title: String?) {
        guard let title, let index = titles.index(forKey: title) else { return }
        if titles.values[index] > 1 { titles.values[index] -= 1 } else { titles.remove(at: index) }
    }
}

/// At most `capacity` items in the order they came, the oldest overwritten first: adding one never
/// moves the others (the listens the twin rule remembers were an array trimmed at its front, which
/// moved all 512 for every listen of a busy hour).
struct RecentItems<Element> {
    let capacity: Int
    private var ring: [Element] = []
    /// Where the next one goes: the oldest, once the ring is full.
    private var next = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Oldest first.
    var items: [Element] { Array(ring[next...] + ring[..<next]) }

    /// Adds `item`; returns the oldest item when it made room for it.
    @discardableResult
    mutating func append(_ item: Element) -> Element? {
        var dropped: Element?
        if ring.count < capacity { ring.append(item) } else { dropped = ring[next]; ring[next] = item }
        next = (next + 1) % capacity
        return dropped
    }

    mutating func removeAll(where shouldBeRemoved: (Element) -> Bool) {
        guard ring.contains(where: shouldBeRemoved) else { return }
        ring = items.filter { !shouldBeRemoved($0) }
        next = ring.count % capacity
    }

    func contains(where matches: (Element) -> Bool) -> Bool { ring.contains(where: matches) }
}
