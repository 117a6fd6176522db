import Clocks

/// The policy of following MPRIS players, with no bus, no disk and no timer in it: it takes what
/// happened (``Input``) and returns what to do (``Action``). ``PlayerTracker`` carries the actions
/// out against the connection and the store and feeds the answers back; tests feed inputs directly.
///
/// A player is keyed by its unique name; signals are believed only from the unique name that owns
/// an `org.mpris.MediaPlayer2.*` name right now, by this type's own `NameOwnerChanged`-driven map,
/// and only for `/org/mpris/MediaPlayer2`. Each player met gets a fresh ``PlayerRef``: an answer or a
/// timer for a player that left (even one whose unique name came back with another well-known name)
/// is ignored.
package final class PlayersCore {
    static let mprisPrefix = "org.mpris.MediaPlayer2."
    package static let mprisPath = "/org/mpris/MediaPlayer2"
    package static let playerInterface = "org.mpris.MediaPlayer2.Player"
    package static let rootInterface = "org.mpris.MediaPlayer2"
    /// Bounds on what other processes can make the broker hold. A connection's names beyond
    /// ``maximumNamesPerConnection`` and players beyond ``maximumPlayers`` are not followed, with one log line
    /// each time a limit is first hit (not one per name or signal).
    /// - ``maximumNamesPerConnection``: a browser owns one per window or tab group, rarely more than a handful.
    /// - ``maximumPlayers``: connections followed at once.
    static let maximumNamesPerConnection = 64
    static let maximumPlayers = 256
    /// Finished listens one player may have held while its app is being found (see ``record(_:of:)``).
    static let maximumHeldListens = 256
    /// Art bytes held across all players until their listens are written: beyond, new art is not
    /// kept (a flood of tracks with large art cannot grow the broker).
    static let maximumPendingArtworkBytes = 32 << 20
    /// Signals between two checks of who is on the bus (see ``countSignal()``).
    static let signalsBetweenNameChecks = 1_000

    /// What happened, as the runtime tells it.
    package enum Input {
        /// The runtime subscribed and listed the names on the bus.
        case listed(names: [String])
        /// `GetNameOwner` answered for a name found by listing.
        case ownerFound(name: String, owner: String)
        /// The bus daemon's `NameOwnerChanged` (`""` for no owner).
        case nameOwnerChanged(name: String, old: String, new: String)
        /// A `PropertiesChanged` signal, its body read (`nil`: the body is no such signal). One whose
        /// bytes repeat the last input's goes to ``repeatedSignal(from:)`` first.
        case propertiesChanged(sender: String, path: String?, signal: PropertiesChangedSignal?)
        case seeked(sender: String, path: String?, position: Microseconds?)
        /// `ListNames` answered the check the core asked for (`nil`: it failed).
        case onBus(names: [String]?)
        /// A read the core asked for answered or failed.
        case answered(PlayerRef, Answer)
        /// The bus daemon told the process id of the player's connection (`nil`: it did not).
        case processFound(PlayerRef, ConnectedProcess?)
        case appResolved(PlayerRef, AppIdentity)
        /// The art at `url` was read (`nil`: there was none, or it was refused).
        case artworkSecured(PlayerRef, url: String, SecuredArtwork?)
        case timerFired(Timer)
        case privacyChanged(PrivacySettings)
        /// The question about a new app (``Action/askAboutApp(_:name:icon:)``) ended with no
        /// answer: dismissed, unseen in time, or never shown. (An answer is a settings change.)
        case appQuestionUnanswered(appID: String)
        /// The broker is stopping: every listen ends.
        case stop
    }

    /// What the runtime does.
    package enum Action: Equatable {
        /// Ask the bus daemon who owns `name` (answer: ``Input/ownerFound(name:owner:)``).
        case lookUpOwner(String)
        /// Ask the bus daemon for every name on the bus (answer: ``Input/onBus(names:)``).
        case listNames
        /// Read the player (answer: ``Input/answered(_:_:_:)``).
        case read(PlayerRef, Read)
        /// Ask the bus daemon for the process id of the player's connection.
        case askProcessID(PlayerRef)
        /// Find the player's app on another thread (answer: ``Input/appResolved(_:_:)``).
        case resolveApp(PlayerRef, PlayerClues)
        /// Read the art a player points at, at once and off the bus thread (answer:
        /// ``Input/artworkSecured(_:url:_:)``): a browser deletes its art file soon after.
        case secureArtwork(PlayerRef, url: String, process: ConnectedProcess?)
        /// Arm `timer` to fire after this many microseconds, replacing the same timer if armed.
        case arm(Timer, after: Microseconds)
        case cancel(Timer)
        /// Do this store work; all the store work one input asks for is one unit (one transaction).
        case store(ListenRecorder.StoreWork)
        /// Ask the person whether to record the new app `appID` (`new_apps = ask`); its listens
        /// are held until the answer, a settings change, or ``Input/appQuestionUnanswered(appID:)``.
        case askAboutApp(String, name: String?, icon: String?)
        /// The settings decided about `appID` while it was asked about: take the question away.
        case withdrawQuestion(String)
        case log(LogLevel, String)
    }

    /// What the core reads from a player.
    package enum Read: Hashable, Sendable {
        /// `GetAll` of the root interface: `Identity`, `DesktopEntry`.
        case identity
        /// `GetAll` of the player interface.
        case player
        /// `Get` of `Position` (it never signals).
        case position
    }

    /// What a read answered, as the broker's values.
    package enum Answer {
        /// The root interface's `Identity` and `DesktopEntry`.
        case identity(name: String?, desktopEntry: String?)
        case player(PlayerProperties)
        /// `nil`: the answer was no position.
        case position(Microseconds?)
        /// The read failed for the player's own reason (`reason`: the error's name, for the log).
        case failed(Read, reason: String)
        /// The bus daemon answered that the player's connection is gone.
        case gone
    }

    package enum Timer: Hashable, Sendable {
        /// The listen's next deadline (checkpoint, qualifying, a long pause).
        case deadline(PlayerRef)
        /// The re-read of a playing player in case it never signals.
        case reread(PlayerRef)
        /// A read asked again after a failure (see ``ReadRetry``).
        case identityRetry(PlayerRef)
        case playerRetry(PlayerRef)
        /// The wait for players that left listens open in the previous run.
        case leftovers
    }

    /// The clocks, injected so tests move time by hand.
    package struct Clocks {
        var wall: () -> Microseconds
        var monotonic: () -> Microseconds
        static var system: Clocks { Clocks(wall: { WallClock.now }, monotonic: { MonotonicClock.microseconds }) }
    }

    // The state below is the core's alone: its files (PlayersCore+*.swift) read and change it;
    // nothing outside the core does.
    let rule: ListenRule
    let clocks: Clocks
    let safetyRereadInterval: Microseconds
    /// Finds an app on this thread: only for the rare paths that cannot wait (see ``resolveNowIfPending(_:)``).
    let resolveNow: (PlayerClues) -> AppIdentity
    /// What becomes of each listen, by the person's settings and the twin rule.
    var recorder: ListenRecorder
    /// Listens a previous run left open (it crashed), by the player that was playing them; each
    /// waits for its player's first properties to decide whether it simply continues.
    var leftovers = LeftoverListens()
    /// Listens of new apps, held while the person is asked about them.
    var awaitingAnswer = ListensAwaitingAnswer()
    var players: [String: FollowedPlayer] = [:]
    /// Well-known MPRIS name → the unique name that owns it.
    var owners: [String: String] = [:]
    var stopped = false
    var generations = 0
    /// Whether the "too many players" line was logged since the count last dropped below the limit.
    var loggedPlayerLimit = false
    var signalsSinceNameCheck = 0
    var checkingNames = false
    /// When the core began following the bus: no listen of a player met already playing is dated
    /// earlier (the previous run recorded what played before it stopped).
    var startedAt: Microseconds = .max
    /// The sender of the last input, when it was a `PropertiesChanged` that started no read: the
    /// same signal again, with nothing else in between, changes nothing — its metadata, rate and
    /// status are the player's already — so it is dropped without decoding (floods, quirk 8; see
    /// ``repeatedSignal(from:)``). Any other input forgets it.
    var repeatableSender: String?
    /// What the input being handled asks the runtime to do, in order.
    var actions: [Action] = []
    /// Where art files are kept (``ArtworkFolder``); `nil`: no art is kept (a history in memory).
    let artworkFolder: String?
    var pendingArtworkBytes = 0

    package init(rule: ListenRule, privacy: PrivacySettings, safetyRereadInterval: Microseconds, artworkFolder: String? = nil,
         clocks: Clocks = .system, resolveNow: @escaping (PlayerClues) -> AppIdentity) {
        self.rule = rule
        self.artworkFolder = artworkFolder
        self.recorder = ListenRecorder(privacy: privacy)
        self.safetyRereadInterval = safetyRereadInterval
        self.clocks = clocks
        self.resolveNow = resolveNow
    }

    /// Whether each player's track and status changes are logged (at debug level, `--verbose`):
    /// off otherwise, so a flood of track changes builds no log lines.
    package var logsPlayerEvents = false

    /// The core starts following the bus now (before the runtime subscribes).
    package func begin() {
        startedAt = clocks.wall()
    }

    /// Takes the listens a previous run left open (a crash or `kill -9`), before ``Input/listed(names:)``.
    /// A listen whose player is still on the bus playing the same track simply continues — the
    /// time the broker was down counts; any other is finished at its last checkpoint and recorded
    /// if it qualifies.
    package func adoptLeftovers(_ open: [OpenListen]) {
        leftovers.adopt(open)
    }

    /// Whether no player holds store work waiting for an answer about its app that is on its way:
    /// what the store holds then reflects everything seen. A player waiting to be asked again
    /// (``ReadRetry``) is not waited for.
    package var isSettled: Bool {
        players.values.allSatisfy { $0.waitingForApp.isEmpty || !$0.identity.isFindingApp }
    }

    /// What to do about `input`, in order.
    package func handle(_ input: Input) -> [Action] {
        defer { actions = [] }
        repeatableSender = nil
        switch input {
        case .listed(let names):
            for name in names where Self.isPlayerName(name) { actions.append(.lookUpOwner(name)) }
            settleLeftovers(stillOnBus: Set(names))
        case .ownerFound(let name, let owner):
            // NameOwnerChanged may have told first; only an unknown name is news.
            if !stopped, owners[name] == nil { nameOwnerChanged(name, from: "", to: owner) }
        case .nameOwnerChanged(let name, let old, let new):
            if !stopped, Self.isPlayerName(name) { nameOwnerChanged(name, from: old, to: new) }
        case .propertiesChanged(let sender, let path, let signal):
            countSignal()
            propertiesChanged(from: sender, path: path, signal)
        case .seeked(let sender, let path, let position):
            countSignal()
            guard !stopped, let player = players[sender], path == Self.mprisPath, let position else { break }
            if logsPlayerEvents { log(.debug, "\(player.uniqueName) seeked to \(position) µs\(sinceMet(player))") }
            tell(player, .seeked(position: position))
        case .onBus(let names):
            checkingNames = false
            if !stopped, let names { reconcile(onBus: Set(names)) }
        case .answered(let ref, let answer):
            guard let player = followed(ref) else { break }
            if case .gone = answer { connectionGone(player) } else { answered(answer, for: player) }
        case .processFound(let ref, let process):
            guard let player = followed(ref) else { break }
            if player.identity.process == nil { player.identity.process = .some(process) }
            if player.wantsApp { resolveApp(of: player) }
            requestAwaitedArtwork(for: player)
        case .appResolved(let ref, let app):
            if let player = followed(ref) { appResolved(app, for: player) }
        case .artworkSecured(let ref, let url, let artwork):
            if let player = followed(ref), let artwork { secured(artwork, from: url, for: player) }
        case .timerFired(let timer):
            fired(timer)
        case .privacyChanged(let settings):
            recorder.privacy = settings
            for player in players.values where (!settings.allows(player.appID) && !settings.awaitsAnswer(about: player.appID))
                || settings.isOptedOut(site: site(ofPlayer: player)) {
                tell(player, .discard)
            }
            writeOrDropSettledListens()
        case .appQuestionUnanswered(let appID):
            let dropped = awaitingAnswer.endUnanswered(appID)
            log(.info, "the question about \(appID) went unanswered: \(dropped) held listen updates dropped, nothing recorded")
        case .stop:
            stop()
        }
        return actions
    }

    /// What to do about a `PropertiesChanged` from `sender` whose bytes are those of the last one
    /// the runtime handed over: when that was the last input and started no read, it changes
    /// nothing and is only counted; `nil` when it must be read and handed over as
    /// ``Input/propertiesChanged(sender:path:signal:)`` after all. The runtime compares the bytes:
    /// the core never sees them.
    package func repeatedSignal(from sender: String) -> [Action]? {
        guard sender == repeatableSender else { return nil }
        defer { actions = [] }
        countSignal()
        return actions
    }

    // MARK: Questions

    /// Whether `sender` is a connection the core follows as a player: another's signals are
    /// counted, never read.
    package func follows(_ sender: String) -> Bool { players[sender] != nil }

    /// The app a connection plays as, when it owns an MPRIS name; `nil` for anyone else.
    package func appID(ofPlayer uniqueName: String) -> String? {
        guard let player = players[uniqueName], !player.busNames.isEmpty else { return nil }
        return player.appID
    }

    package func nowPlaying() -> [MediaAsset] {
        let now = clocks.wall()
        return players.values.compactMap { player in
            var playing = player.listening.current(at: now).flatMap { asset($0, of: player) }
            playing?.site = site(ofPlayer: player)
            return playing
        }
            .sorted { $0.started > $1.started }
    }

    /// The site of what a browser plays now (``BrowserSites``); `nil` for any other player.
    func site(ofPlayer player: FollowedPlayer) -> String? {
        guard player.isBrowser else { return nil }
        return BrowserSites.site(ofPage: player.listening.metadata?.url)
    }

    /// The new apps asked about in this run: those waiting for an answer and those left unanswered.
    package func appsAskedAbout() -> Set<String> {
        awaitingAnswer.unansweredApps.union(awaitingAnswer.asking.keys)
    }

    package func followedPlayers() -> [PlayerSummary] {
        players.values.flatMap { player in
            player.busNames.sorted().map { name in
                PlayerSummary(busName: name, uniqueName: player.uniqueName, appID: player.appID,
                              playbackStatus: player.status?.rawValue)
            }
        }.sorted { $0.busName < $1.busName }
    }
}

/// One player as the core meets it: its unique name and which meeting. A unique name is never
/// reused on a bus, but its connection may drop every MPRIS name and take one again: that is a
/// new meeting, and answers to the old one are ignored.
package struct PlayerRef: Hashable, Sendable {
    package let uniqueName: String
    let generation: Int
}
