/// What ``PlayersCore`` knows of one player it follows.
final class FollowedPlayer {
    let ref: PlayerRef
    var busNames: Set<String> = [] {
        didSet { isProxy = busNames.contains(where: Self.isProxyName) }
    }
    /// Who it is (see ``PlayerIdentity``).
    var identity = PlayerIdentity()
    var playerRetry = ReadRetry()
    /// The app is to be resolved as soon as the bus daemon tells the process id.
    var wantsApp = false
    /// The player interface has answered a read at least once.
    var hasReadPlayer = false
    /// When the broker began following it, and whether it has been Playing since.
    let metAt: Microseconds
    var hasPlayed = false
    /// Store work for this player's listens, held (coalesced) until its app is known.
    var waitingForApp = HeldListenEffects()
    var listening: PlayerListening
    var status: PlaybackStatus?
    /// The timers armed for it, and when the deadline timer fires: a deadline no earlier than that
    /// keeps it.
    var armed = TimerSet()
    var deadlineFiresAt: Microseconds?
    /// The last `Metadata` the player sent, decoded, and its last `Rate`: the same again in a
    /// signal that differs otherwise (a new status, say) is no event. Metadata that differs only
    /// in what decodes the same — a key the broker does not read (`mpris:artUrl`), whitespace
    /// it trims, a length it rejects either way — is no new track either, so it starts no re-read.
    var lastMetadata: TrackMetadata?
    var lastRate: Double?
    /// The name limit was hit and logged for this connection.
    var loggedNameLimit = false
    /// The art it showed lately (``PlayerArtwork``).
    var art = PlayerArtwork()

    enum TimerKind: UInt8, CaseIterable {
        case deadline = 1, reread = 2, identityRetry = 4, playerRetry = 8

        func timer(for ref: PlayerRef) -> PlayersCore.Timer {
            switch self {
            case .deadline: .deadline(ref)
            case .reread: .reread(ref)
            case .identityRetry: .identityRetry(ref)
            case .playerRetry: .playerRetry(ref)
            }
        }
    }

    /// Which timers are armed: a few bits, asked on every signal.
    struct TimerSet {
        private var bits: UInt8 = 0

        func contains(_ kind: TimerKind) -> Bool { bits & kind.rawValue != 0 }
        mutating func insert(_ kind: TimerKind) { bits |= kind.rawValue }
        /// Whether it was armed.
        mutating func remove(_ kind: TimerKind) -> Bool {
            defer { bits &= ~kind.rawValue }
            return contains(kind)
        }
        var kinds: [TimerKind] { TimerKind.allCases.filter(contains) }
        mutating func removeAll() { bits = 0 }
    }

    init(ref: PlayerRef, rule: ListenRule, metAt: Microseconds) {
        self.ref = ref
        self.metAt = metAt
        self.listening = PlayerListening(rule: rule)
    }

    var uniqueName: String { ref.uniqueName }
    var appID: String { identity.appID(busNames: busNames) }
    var appName: String? { identity.appName }
    var app: AppIdentity? { identity.app }

    /// Whether this player mirrors media that plays elsewhere (quirk 14): KDE Connect's
    /// `kdeconnect.mpris_<uuid>` (a phone) and plasma-browser-integration (a second copy of a
    /// browser's own MPRIS player). BlueZ `mpris-proxy` names its players after the Bluetooth
    /// device's alias, so it cannot be told by name: the twin rule still keeps it from counting
    /// a song twice, it just is not *preferred* against.
    ///
    /// Kept up to date as `busNames` changes rather than worked out from them at every finished
    /// listen.
    private(set) var isProxy = false

    /// Whether the player's app is a web browser, whose listens have a site (``BrowserSites``):
    /// told as its app is found, rather than looked up at every listen.
    var isBrowser = false

    static func isProxyName(_ name: String) -> Bool {
        let stem = PlayerClues.stem(ofBusName: name)
        return stem.hasPrefix("kdeconnect") || stem == "plasma-browser-integration"
    }
}
