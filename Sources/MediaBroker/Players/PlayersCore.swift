import Clocks
import SwiftDBus

/// The policy of following MPRIS players, with no bus, no disk and no timer in it: it takes what
/// happened (``Input``) and returns what to do (``Action``). ``PlayerTracker`` carries the actions
/// out against the connection and the store and feeds the answers back; tests feed inputs directly.
///
/// A player is keyed by its unique name; signals are believed only from the unique name that owns
/// an `org.mpris.MediaPlayer2.*` name right now, by this type's own `NameOwnerChanged`-driven map,
/// and only for `/org/mpris/MediaPlayer2`. Each player met gets a fresh ``PlayerRef``: an answer or a
/// timer for a player that left (even one whose unique name came back with another well-known name)
/// is ignored.
final class PlayersCore {
    static let mprisPrefix = "org.mpris.MediaPlayer2."
    static let mprisPath: ObjectPath = "/org/mpris/MediaPlayer2"
    static let playerInterface: InterfaceName = "org.mpris.MediaPlayer2.Player"
    static let rootInterface: InterfaceName = "org.mpris.MediaPlayer2"
    /// Bounds on what other processes can make the broker hold. A connection's names beyond
    /// ``maximumNamesPerConnection`` and players beyond ``maximumPlayers`` are not followed, with one log line
    /// each time a limit is first hit (not one per name or signal).
    /// - ``maximumNamesPerConnection``: a browser owns one per window or tab group, rarely more than a handful.
    /// - ``maximumPlayers``: connections followed at once.
    static let maximumNamesPerConnection = 64
    static let maximumPlayers = 256
    /// Finished listens one player may have held while its app is being found (see `perform`).
    static let maximumHeldListens = 256
    /// Art bytes held across all players until their listens are written: beyond, new art is not
    /// kept (a flood of tracks with large art cannot grow the broker).
    static let maximumPendingArtworkBytes = 32 << 20
    /// Signals between two checks of who is on the bus (see ``countSignal()``).
    static let signalsBetweenNameChecks = 1_000

    /// What happened, as the runtime tells it.
    enum Input {
        /// The runtime subscribed and listed the names on the bus.
        case listed(names: [String])
        /// `GetNameOwner` answered for a name found by listing.
        case ownerFound(name: String, owner: String)
        /// The bus daemon's `NameOwnerChanged` (`""` for no owner).
        case nameOwnerChanged(name: String, old: String, new: String)
        case propertiesChanged(sender: String, path: ObjectPath?, body: MessageBody)
        case seeked(sender: String, path: ObjectPath?, position: Microseconds?)
        /// `ListNames` answered the check the core asked for (`nil`: it failed).
        case onBus(names: [String]?)
        /// A read the core asked for answered (the reply's arguments) or failed.
        case answered(PlayerRef, Read, Result<[DBusValue], BusError>)
        /// The bus daemon told the process id of the player's connection (`nil`: it did not).
        case processFound(PlayerRef, ConnectedProcess?)
        case appResolved(PlayerRef, AppIdentity)
        /// The art at `url` was read (`nil`: there was none, or it was refused).
        case artworkSecured(PlayerRef, url: String, SecuredArtwork?)
        case timerFired(Timer)
        case privacyChanged(PrivacySettings)
        /// The broker is stopping: every listen ends.
        case stop
    }

    /// What the runtime does.
    enum Action: Equatable {
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
        case log(Log.Level, String)
    }

    /// What the core reads from a player.
    enum Read: Hashable, Sendable {
        /// `GetAll` of the root interface: `Identity`, `DesktopEntry`.
        case identity
        /// `GetAll` of the player interface.
        case player
        /// `Get` of `Position` (it never signals).
        case position
    }

    enum Timer: Hashable, Sendable {
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
    struct Clocks {
        var wall: () -> Microseconds
        var monotonic: () -> Microseconds
        static var system: Clocks { Clocks(wall: { WallClock.now }, monotonic: { MonotonicClock.microseconds }) }
    }

    private let rule: ListenRule
    private let clocks: Clocks
    private let safetyRereadInterval: Microseconds
    /// Finds an app on this thread: only for the rare paths that cannot wait (see ``resolveNowIfPending(_:)``).
    private let resolveNow: (PlayerClues) -> AppIdentity
    /// What becomes of each listen, by the person's settings and the twin rule.
    private var recorder: ListenRecorder
    /// Listens a previous run left open (it crashed), by the player that was playing them; each
    /// waits for its player's first properties to decide whether it simply continues.
    private var leftovers = LeftoverListens()
    private var players: [String: FollowedPlayer] = [:]
    /// Well-known MPRIS name → the unique name that owns it.
    private var owners: [String: String] = [:]
    private var stopped = false
    private var generations = 0
    /// Whether the "too many players" line was logged since the count last dropped below the limit.
    private var loggedPlayerLimit = false
    private var signalsSinceNameCheck = 0
    private var checkingNames = false
    /// When the core began following the bus: no listen of a player met already playing is dated
    /// earlier (the previous run recorded what played before it stopped).
    private var startedAt: Microseconds = .max
    /// Where the actions of the input being handled go: the caller's buffer, lent for the call.
    private var actions: [Action] = []
    /// Where art files are kept (``ArtworkFolder``); `nil`: no art is kept (a history in memory).
    private let artworkFolder: String?
    private var pendingArtworkBytes = 0

    init(rule: ListenRule, privacy: PrivacySettings, safetyRereadInterval: Microseconds, artworkFolder: String? = nil,
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
    var logsPlayerEvents = false

    /// The core starts following the bus now (before the runtime subscribes).
    func begin() {
        startedAt = clocks.wall()
    }

    /// Takes the listens a previous run left open (a crash or `kill -9`), before ``Input/listed(names:)``.
    /// A listen whose player is still on the bus playing the same track simply continues — the
    /// time the broker was down counts; any other is finished at its last checkpoint and recorded
    /// if it qualifies.
    func adoptLeftovers(_ open: [OpenListen]) {
        leftovers.adopt(open)
    }

    /// Whether no player holds store work waiting for an answer about its app that is on its way:
    /// what the store holds then reflects everything seen. A player waiting to be asked again
    /// (``ReadRetry``) is not waited for.
    var isSettled: Bool {
        players.values.allSatisfy { $0.waitingForApp.isEmpty || !$0.identity.isFindingApp }
    }

    /// What to do about `input`, appended to `actions`. The caller lends its buffer and reuses it, so
    /// handling a signal allocates nothing of its own (the `bench/run` track-change row).
    func handle(_ input: Input, into buffer: inout [Action]) {
        swap(&actions, &buffer)
        defer { swap(&actions, &buffer) }
        switch input {
        case .listed(let names):
            for name in names where Self.isPlayerName(name) { actions.append(.lookUpOwner(name)) }
            settleLeftovers(stillOnBus: Set(names))
        case .ownerFound(let name, let owner):
            // NameOwnerChanged may have told first; only an unknown name is news.
            if !stopped, owners[name] == nil { nameOwnerChanged(name, from: "", to: owner) }
        case .nameOwnerChanged(let name, let old, let new):
            if !stopped, Self.isPlayerName(name) { nameOwnerChanged(name, from: old, to: new) }
        case .propertiesChanged(let sender, let path, let body):
            countSignal()
            propertiesChanged(from: sender, path: path, body)
        case .seeked(let sender, let path, let position):
            countSignal()
            guard !stopped, let player = players[sender], path == Self.mprisPath, let position else { break }
            if logsPlayerEvents { log(.debug, "\(player.uniqueName) seeked to \(position) µs\(sinceMet(player))") }
            handle(.seeked(position: position), for: player)
        case .onBus(let names):
            checkingNames = false
            if !stopped, let names { reconcile(onBus: Set(names)) }
        case .answered(let ref, let read, let result):
            guard let player = followed(ref) else { break }
            forgetLastSignal(of: player)
            if case .failure(let error) = result, error.name == .serviceUnknown || error.name == .nameHasNoOwner {
                connectionGone(player)
            } else {
                answered(read, result, for: player)
            }
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
            for player in players.values {
                forgetLastSignal(of: player)
                if !settings.allows(player.appID) { handle(.discard, for: player) }
            }
        case .stop:
            stop()
        }
    }

    /// What to do about `input`, in a new array (tests).
    func handle(_ input: Input) -> [Action] {
        var actions: [Action] = []
        handle(input, into: &actions)
        return actions
    }

    // MARK: Questions

    /// The app a connection plays as, when it owns an MPRIS name; `nil` for anyone else.
    func appID(ofPlayer uniqueName: String) -> String? {
        guard let player = players[uniqueName], !player.busNames.isEmpty else { return nil }
        return player.appID
    }

    func nowPlaying() -> [MediaAsset] {
        let now = clocks.wall()
        return players.values.compactMap { player in player.listening.current(at: now).flatMap { asset($0, of: player) } }
            .sorted { $0.started > $1.started }
    }

    func followedPlayers() -> [PlayerSummary] {
        players.values.flatMap { player in
            player.busNames.sorted().map { name in
                PlayerSummary(busName: name, uniqueName: player.uniqueName, appID: player.appID,
                              playbackStatus: player.status?.rawValue)
            }
        }.sorted { $0.busName < $1.busName }
    }

    // MARK: Names

    static func isPlayerName(_ name: String) -> Bool {
        // playerctld mirrors whichever player is active: never a source of its own.
        name.hasPrefix(mprisPrefix) && name != mprisPrefix + "playerctld"
    }

    private func followed(_ ref: PlayerRef) -> FollowedPlayer? {
        guard let player = players[ref.uniqueName], player.ref == ref else { return nil }
        return player
    }

    private func nameOwnerChanged(_ name: String, from old: String, to new: String) {
        if !old.isEmpty, let player = players[old] {
            forgetLastSignal(of: player)
            player.busNames.remove(name)
            owners[name] = nil
            if player.busNames.isEmpty { playerLeft(player) }
        }
        guard !new.isEmpty else { return }
        if let player = players[new] {
            forgetLastSignal(of: player)
            guard player.busNames.count < Self.maximumNamesPerConnection else {
                if !player.loggedNameLimit {
                    player.loggedNameLimit = true
                    log(.warning, "\(new) owns more than \(Self.maximumNamesPerConnection) MPRIS names; not following the rest")
                }
                return
            }
            owners[name] = new
            player.busNames.insert(name)
            return
        }
        guard players.count < Self.maximumPlayers else {
            if !loggedPlayerLimit {
                loggedPlayerLimit = true
                log(.warning, "already following \(Self.maximumPlayers) players; not following new ones until some leave")
            }
            return
        }
        owners[name] = new
        generations += 1
        let player = FollowedPlayer(ref: PlayerRef(uniqueName: new, generation: generations), rule: rule, metAt: clocks.wall())
        player.busNames.insert(name)
        players[new] = player
        log(.info, "following player \(name) (\(new))")
        actions.append(.askProcessID(player.ref))
        readIdentity(of: player)
        readPlayerProperties(of: player)
    }

    private func playerLeft(_ player: FollowedPlayer) {
        log(.info, "player \(player.appID) (\(player.uniqueName)) left the bus")
        resolveNowIfPending(player)
        handle(.playerGone, for: player)
        cancelTimers(of: player)
        pendingArtworkBytes -= player.art.pendingBytes
        players[player.uniqueName] = nil
        if players.count < Self.maximumPlayers { loggedPlayerLimit = false }
    }

    /// A read found no connection under the player's unique name: it is gone, for good (a unique
    /// name is never given again), though its `NameOwnerChanged` has not come — it may have been
    /// dropped (see ``countSignal()``).
    private func connectionGone(_ player: FollowedPlayer) {
        log(.info, "\(player.uniqueName) is no longer on the bus")
        for name in player.busNames { nameOwnerChanged(name, from: player.uniqueName, to: "") }
    }

    /// The bus daemon drops what it cannot queue for a connection that falls behind, and a
    /// `NameOwnerChanged` dropped so would leave a player that left followed, and "playing", until
    /// it is next read. So while signals pour in, the core asks now and then who is on the bus. A
    /// message is dropped only when the queue to the broker is full, thousands of signals deep: a
    /// check asked while the broker reads them is asked after the drop, and answered behind them.
    private func countSignal() {
        signalsSinceNameCheck += 1
        guard signalsSinceNameCheck >= Self.signalsBetweenNameChecks, !checkingNames, !stopped else { return }
        signalsSinceNameCheck = 0
        checkingNames = true
        actions.append(.listNames)
    }

    /// A name the core follows that the bus no longer has left unannounced; a player name the core
    /// has not met is looked up, as at the start.
    private func reconcile(onBus names: Set<String>) {
        for (name, owner) in owners where !names.contains(name) {
            log(.info, "\(name) (\(owner)) left the bus unannounced")
            nameOwnerChanged(name, from: owner, to: "")
        }
        for name in names where Self.isPlayerName(name) && owners[name] == nil { actions.append(.lookUpOwner(name)) }
    }

    private func stop() {
        guard !stopped else { return }
        stopped = true
        for player in players.values {
            resolveNowIfPending(player)
            handle(.brokerStopping, for: player)
            cancelTimers(of: player)
        }
    }

    // MARK: Signals

    private func propertiesChanged(from sender: String, path: ObjectPath?, _ body: MessageBody) {
        guard !stopped, let player = players[sender], path == Self.mprisPath else { return }
        guard body != player.lastSignal else { return }
        let startedRead = PropertiesChangedSignal(body, readingPropertiesOf: Self.playerInterface.rawValue)
            .map { apply($0, to: player) } ?? false
        player.lastSignal = startedRead ? nil : body
    }

    /// Applies a `PropertiesChanged` signal; returns whether that started a read of the player,
    /// which a repeat of the signal would start again (so it must not be dropped).
    private func apply(_ signal: PropertiesChangedSignal, to player: FollowedPlayer) -> Bool {
        // Other interfaces (Playlists, TrackList) are none of our business (quirk 12).
        guard signal.interface == Self.playerInterface.rawValue else {
            guard signal.interface == Self.rootInterface.rawValue else { return false }
            readIdentity(of: player)
            return true
        }
        let changed = signal.changed
        // A new track without its status: the player may not re-send PlaybackStatus (quirk 10),
        // so it is read again.
        let newTrack = apply(changed, to: player)
        let newTrackWithoutStatus = newTrack && changed.playbackStatus == nil
        // Only-invalidated properties are re-read, not taken as cleared (quirk 11).
        let reread = signal.invalidated.contains(where: changed.lacks)
        guard reread || newTrackWithoutStatus else { return false }
        readPlayerProperties(of: player)
        return true
    }

    /// Something other than a `PropertiesChanged` reached the player or changed what it is (a
    /// `Seeked`, a read's answer, a timer, a name, its app, the privacy settings): its last signal
    /// may no longer be a no-op, so the next one is applied even if it is the same.
    private func forgetLastSignal(of player: FollowedPlayer) {
        player.lastSignal = nil
    }

    /// Feeds the properties a player reported to its listening state, metadata first: a track
    /// change often arrives together with its status. The position comes before Playing (a player
    /// met already playing began where it says) and after Paused (Paused at the end is the end).
    /// Returns whether `Metadata` named a new track — not a repeat, and not the same track told
    /// again with a field filled in or revised (Chromium's growing `mpris:length` when a server
    /// has no range requests, each of which would otherwise start a read).
    @discardableResult
    private func apply(_ properties: PlayerProperties, to player: FollowedPlayer) -> Bool {
        var newTrack = false
        // Art is asked for as soon as it is told, even when nothing else changed: a browser's
        // art file may be gone a moment later.
        if let metadata = properties.metadata { requestArtwork(metadata.artURL, for: player) }
        if let metadata = properties.metadata, metadata != player.lastMetadata {
            newTrack = player.lastMetadata.map { !metadata.isSameTrack(as: $0) && !metadata.fillsIn(untitled: $0) } ?? true
            if logsPlayerEvents {
                log(.debug, "\(player.uniqueName) tells \(newTrack ? "a new track" : "the same track again"): \(metadata.title.map { "\"\($0)\"" } ?? "no title"), length \(metadata.length.map(String.init) ?? "unknown") µs\(sinceMet(player))")
            }
            player.lastMetadata = metadata
            handle(.metadata(metadata), for: player)
        }
        if let rate = properties.rate, rate != player.lastRate, let event = PlayerEvent.rate(mpris: rate) {
            player.lastRate = rate
            handle(event, for: player)
        }
        let position = properties.position.flatMap(TrackMetadata.microseconds)
        let status = properties.playbackStatus.flatMap(PlaybackStatus.init(mpris:))
        if let position, status != .paused { handle(.position(position), for: player) }
        if let status {
            let changed = status != player.status
            if logsPlayerEvents, changed {
                log(.debug, "\(player.uniqueName) is \(status) at \(position.map { "\($0) µs" } ?? "an untold position")\(sinceMet(player))")
            }
            player.status = status
            handle(event(for: status, of: player), for: player)
            if changed || !player.armed.contains(.reread) { scheduleSafetyReread(of: player) }
            // Paused at the track's end is the track ended: where is it? (Firefox's `<audio>`.)
            if changed, status == .paused, position == nil { actions.append(.read(player.ref, .position)) }
        }
        if let position, status == .paused { handle(.position(position), for: player) }
        return newTrack
    }

    /// The event for a status the player reported: its first Playing may have begun earlier
    /// (``LateStart``).
    private func event(for status: PlaybackStatus, of player: FollowedPlayer) -> PlayerEvent {
        guard status == .playing, !player.hasPlayed else { return .playbackStatus(status) }
        player.hasPlayed = true
        let current = clocks.wall()
        let listening = player.listening
        guard let began = LateStart.began(position: listening.position(at: current), rate: listening.rate,
                                          length: listening.metadata?.length, metAt: player.metAt,
                                          followingSince: startedAt, now: current)
        else { return .playbackStatus(status) }
        return .playingSince(began)
    }

    // MARK: Reads

    /// Reads `Identity` and `DesktopEntry`, then resolves the app (desktop file, icon, Flatpak or
    /// snap sandbox from the player's process). A read that fails — the player owns its name but
    /// has not exported its object yet — is asked again (``ReadRetry``), and at once when the player
    /// interface first answers; the app is resolved only from an answer, or from the name and
    /// process alone once the player was given up on.
    private func readIdentity(of player: FollowedPlayer) {
        cancel(.identityRetry, of: player)
        player.identity.isFindingApp = true
        actions.append(.read(player.ref, .identity))
    }

    /// Reads the player interface, asked again like the root interface until it first answers
    /// (the player may not have exported its object yet).
    private func readPlayerProperties(of player: FollowedPlayer) {
        cancel(.playerRetry, of: player)
        actions.append(.read(player.ref, .player))
    }

    private func answered(_ read: Read, _ result: Result<[DBusValue], BusError>, for player: FollowedPlayer) {
        switch (read, result) {
        case (.identity, .success(let values)):
            player.identity.isFindingApp = false
            player.identity.answered(Self.properties(in: values))
            resolveApp(of: player)
        case (.identity, .failure(let error)):
            player.identity.isFindingApp = false
            switch player.identity.failed(at: clocks.monotonic()) {
            case .askAgain(let delay):
                log(.debug, "\(player.uniqueName) did not tell its identity (\(error.name)); asking again in \(delay / 1000) ms")
                arm(.identityRetry, of: player, after: delay)
            case .resolveWithout:
                log(.warning, "\(player.uniqueName) never told its identity (\(error.name)); its app is found from its name and process")
                resolveApp(of: player)
            case .nothing:
                break
            }
        case (.player, .success(let values)):
            player.playerRetry = ReadRetry()
            // Its first answer asks again at once for an identity that failed: the object is there now.
            if !player.hasReadPlayer {
                player.hasReadPlayer = true
                if player.armed.contains(.identityRetry) { readIdentity(of: player) }
            }
            let properties = Self.properties(in: values)
            if let waiting = leftovers.take(for: player.uniqueName) {
                resume(waiting, of: player, from: properties)
            } else {
                apply(PlayerProperties(properties), to: player)
            }
        case (.player, .failure(let error)):
            // Once it has answered, its object is there: a failure then is the player's own
            // (the next signal or safety re-read asks again).
            guard !player.hasReadPlayer, let delay = player.playerRetry.failed(at: clocks.monotonic()) else {
                return log(.debug, "could not read \(Self.playerInterface) of \(player.uniqueName): \(error)")
            }
            arm(.playerRetry, of: player, after: delay)
        case (.position, .success(let values)):
            guard let value = values.first, let position = TrackMetadata.microseconds(value) else { return }
            if logsPlayerEvents { log(.debug, "\(player.uniqueName) is at \(position) µs, read\(sinceMet(player))") }
            handle(.position(position), for: player)
        case (.position, .failure):
            break
        }
    }

    /// A `GetAll` answer's dictionary; an answer that is not one is an empty one.
    private static func properties(in values: [DBusValue]) -> [String: DBusValue] {
        (try? values.first?.vardict()) ?? [:]
    }

    /// While a player plays, re-read it now and then: some never signal. Nothing runs while
    /// nothing plays.
    private func scheduleSafetyReread(of player: FollowedPlayer) {
        cancel(.reread, of: player)
        guard player.status == .playing, !stopped else { return }
        arm(.reread, of: player, after: safetyRereadInterval)
    }

    // MARK: Apps

    /// Resolves the app once the process id is known (the runtime asked for it on meeting).
    private func resolveApp(of player: FollowedPlayer) {
        player.identity.isFindingApp = true
        guard player.identity.process != nil else {
            player.wantsApp = true
            return
        }
        player.wantsApp = false
        guard let clues = player.identity.clues(busNames: player.busNames) else { return }
        actions.append(.resolveApp(player.ref, clues))
    }

    private func appResolved(_ app: AppIdentity, for player: FollowedPlayer) {
        forgetLastSignal(of: player)
        player.identity.isFindingApp = false
        let (isNew, changedApp) = player.identity.resolved(app)
        if isNew { log(.info, "player \(player.uniqueName) is app \(app.appID)") }
        if player.waitingForApp.coalesced > 0 {
            log(.info, "\(player.uniqueName) (\(app.appID)): coalesced \(player.waitingForApp.coalesced) listen updates while its app was being found")
        }
        for held in player.waitingForApp.takeAll() {
            performNow(held.effect, for: player, settingsThen: held.settings)
        }
        if !recorder.privacy.allows(app.appID) {
            handle(.discard, for: player)
        } else if changedApp {
            handle(.appChanged, for: player)
        }
    }

    /// A player leaving (or the broker stopping) before its app resolved: resolve it here, on this
    /// thread — a rare path, and its held store work must not be lost or done under a guessed id.
    private func resolveNowIfPending(_ player: FollowedPlayer) {
        guard player.app == nil, let clues = player.identity.clues(busNames: player.busNames) else { return }
        appResolved(resolveNow(clues), for: player)
    }

    // MARK: Listens

    private func handle(_ event: PlayerEvent, for player: FollowedPlayer) {
        forgetLastSignal(of: player)
        for effect in player.listening.handle(event, at: clocks.wall()) { perform(effect, for: player) }
        scheduleDeadline(for: player)
    }

    private func scheduleDeadline(for player: FollowedPlayer) {
        let now = clocks.wall()
        let deadline = stopped ? nil : player.listening.nextDeadline(at: now)
        // A timer armed for no later than the deadline stays: if it fires early, the tick finds
        // nothing due and arms the next. Most track changes move the deadline later (the next
        // checkpoint), and re-arming a timer on each would cost every track change.
        if let deadline, let firesAt = player.deadlineFiresAt, firesAt <= deadline { return }
        cancel(.deadline, of: player)
        player.deadlineFiresAt = nil
        guard let deadline else { return }
        arm(.deadline, of: player, after: max(0, deadline - now))
        player.deadlineFiresAt = deadline
    }

    private func asset(_ listen: Listen, of player: FollowedPlayer) -> MediaAsset? {
        listen.asset(appID: player.appID, appName: player.appName, appIcon: player.app?.appIcon)
    }

    /// Hands an effect to the recorder once the player's app is known; until then it is held
    /// (see ``HeldListenEffects``) with the settings in force when it happened.
    private func perform(_ effect: ListenEffect, for player: FollowedPlayer) {
        guard player.app == nil else { return performNow(effect, for: player, settingsThen: CollectionOfOne(recorder.privacy)) }
        player.waitingForApp.hold(effect, settings: recorder.privacy)
        // Finished listens qualified and are never dropped, so they are what a flood could pile
        // up: past a bound the app is resolved now, from the clues at hand.
        if player.waitingForApp.finishedCount >= Self.maximumHeldListens {
            log(.warning, "\(player.uniqueName) finished \(Self.maximumHeldListens) listens before its app was known; resolving it now")
            resolveNowIfPending(player)
        }
    }

    /// Does what the recorder decides for `effect` (see ``ListenRecorder``).
    private func performNow(_ effect: ListenEffect, for player: FollowedPlayer, settingsThen: some Collection<PrivacySettings>) {
        let source = ListenRecorder.Source(uniqueName: player.uniqueName, appID: player.appID, appName: player.appName,
                                           appIcon: player.app?.appIcon, isProxy: player.isProxy, artworkFiles: player.art.files)
        let now = clocks.wall()
        let work = recorder.perform(effect, from: source, settingsThen: settingsThen, at: now) {
            players.values.compactMap { other in
                guard other !== player, let playing = other.listening.current(at: now) else { return nil }
                return TwinRule.Playing(listen: playing, isProxy: other.isProxy)
            }
        }
        guard let work else { return }
        if logsPlayerEvents, case .record(let asset, _) = work {
            log(.debug, "\(player.uniqueName)'s listen of \"\(asset.title)\" ends: \(asset.listened) µs heard\(sinceMet(player))")
        }
        switch work {
        case .removeTwin:
            log(.debug, "\(player.uniqueName) mirrored a listen recorded from another player; not counted twice")
        case .saveOpenListen(_, let asset, _), .record(let asset, _):
            // The art goes to the store with the listen's first write that names it, not before:
            // a track that never becomes a listen leaves no art behind.
            if asset.artwork != nil, let url = effect.listen.metadata.artURL, let artwork = player.art.takePending(url) {
                pendingArtworkBytes -= artwork.bytes.count
                actions.append(.store(.keepArtwork(artwork)))
            }
        default:
            break
        }
        actions.append(.store(work))
    }

    // MARK: Artwork

    /// Asks for the art at `url` to be read, once per URL, when the history keeps art and the URL
    /// is a local file or a `data:` URL (an `http(s)` URL is only kept as text, never fetched).
    private func requestArtwork(_ url: String?, for player: FollowedPlayer) {
        guard artworkFolder != nil, let url, url != player.art.requested else { return }
        player.art.requested = url
        // The URL is parsed where it is read (``ArtworkReads``); an http(s) one is never read.
        guard player.art.files[url] == nil, !ArtworkSource.isRemote(url) else { return }
        // A file is read as the player's process sees its files (it may be sandboxed): once the
        // bus daemon has told which process that is.
        guard let process = player.identity.process else { return player.art.awaitingProcess = true }
        actions.append(.secureArtwork(player.ref, url: url, process: process))
    }

    /// Asks for the art that waited for the player's process.
    private func requestAwaitedArtwork(for player: FollowedPlayer) {
        guard player.art.awaitingProcess, let url = player.art.requested, let process = player.identity.process else { return }
        player.art.awaitingProcess = false
        actions.append(.secureArtwork(player.ref, url: url, process: process))
    }

    private func secured(_ artwork: SecuredArtwork, from url: String, for player: FollowedPlayer) {
        guard let folder = artworkFolder else { return }
        guard pendingArtworkBytes + artwork.bytes.count <= Self.maximumPendingArtworkBytes else {
            return log(.debug, "not keeping art from \(player.uniqueName): \(pendingArtworkBytes) bytes of art wait already")
        }
        pendingArtworkBytes += artwork.bytes.count - player.art.secured(artwork, from: url, folder: folder)
        log(.debug, "secured art \(artwork.fileName) (\(artwork.bytes.count) bytes) from \(player.uniqueName)")
    }

    // MARK: Leftovers

    private func settleLeftovers(stillOnBus names: Set<String>) {
        leftovers.takeGone(stillOnBus: names).forEach(finishLeftover)
        guard !leftovers.isEmpty else { return }
        actions.append(.arm(.leftovers, after: LeftoverListens.patience.wholeMicroseconds))
    }

    private func resume(_ waiting: [OpenListen], of player: FollowedPlayer, from properties: [String: DBusValue]) {
        var remaining = waiting
        if let first = remaining.first,
           let resumed = LeftoverListens.resuming(first, with: properties, rule: rule,
                                                  recordingAllowed: recorder.privacy.allows(player.appID), at: clocks.wall()) {
            remaining.removeFirst()
            player.listening = resumed
            player.status = resumed.status
            log(.info, "resumed a listen on \(player.uniqueName) left open by the previous run")
            handle(.tick, for: player)
            scheduleSafetyReread(of: player)
        }
        remaining.forEach(finishLeftover)
        if remaining.count == waiting.count { apply(PlayerProperties(properties), to: player) }
    }

    private func finishLeftover(_ leftover: OpenListen) {
        actions.append(.store(LeftoverListens.finishing(leftover, rule: rule, privacy: recorder.privacy)))
    }

    // MARK: Timers

    private func fired(_ timer: Timer) {
        guard case .leftovers = timer else {
            guard let (player, kind) = player(of: timer) else { return }
            _ = player.armed.remove(kind)
            switch kind {
            case .deadline:
                player.deadlineFiresAt = nil
                handle(.tick, for: player)
            case .reread:
                forgetLastSignal(of: player)
                readPlayerProperties(of: player)
            case .identityRetry:
                readIdentity(of: player)
            case .playerRetry:
                readPlayerProperties(of: player)
            }
            return
        }
        leftovers.takeAll().forEach(finishLeftover)
    }

    private func player(of timer: Timer) -> (FollowedPlayer, FollowedPlayer.TimerKind)? {
        let (ref, kind): (PlayerRef, FollowedPlayer.TimerKind)
        switch timer {
        case .deadline(let r): (ref, kind) = (r, .deadline)
        case .reread(let r): (ref, kind) = (r, .reread)
        case .identityRetry(let r): (ref, kind) = (r, .identityRetry)
        case .playerRetry(let r): (ref, kind) = (r, .playerRetry)
        case .leftovers: return nil
        }
        return followed(ref).map { ($0, kind) }
    }

    private func arm(_ kind: FollowedPlayer.TimerKind, of player: FollowedPlayer, after delay: Microseconds) {
        player.armed.insert(kind)
        actions.append(.arm(kind.timer(for: player.ref), after: delay))
    }

    private func cancel(_ kind: FollowedPlayer.TimerKind, of player: FollowedPlayer) {
        guard player.armed.remove(kind) else { return }
        actions.append(.cancel(kind.timer(for: player.ref)))
    }

    private func cancelTimers(of player: FollowedPlayer) {
        for kind in player.armed.kinds { actions.append(.cancel(kind.timer(for: player.ref))) }
        player.armed.removeAll()
        player.deadlineFiresAt = nil
    }

    /// ", N ms after it was met", for the debug lines of a player's events.
    private func sinceMet(_ player: FollowedPlayer) -> String {
        ", \((clocks.wall() - player.metAt) / 1000) ms after it was met"
    }

    private func log(_ level: Log.Level, _ message: String) {
        actions.append(.log(level, message))
    }
}

/// One player as the core meets it: its unique name and which meeting. A unique name is never
/// reused on a bus, but its connection may drop every MPRIS name and take one again: that is a
/// new meeting, and answers to the old one are ignored.
struct PlayerRef: Hashable, Sendable {
    let uniqueName: String
    let generation: Int
}
