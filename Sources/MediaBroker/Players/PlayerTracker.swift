public import SwiftDBus

/// Follows every MPRIS player on the bus and turns what each plays into listens.
///
/// Everything here runs on the bus connection's thread — handlers, replies and timers — so the
/// state needs no lock. A player is keyed by its unique name; signals are believed only from the
/// unique name that owns an `org.mpris.MediaPlayer2.*` name right now, by this object's own
/// `NameOwnerChanged`-driven map, and only for `/org/mpris/MediaPlayer2`.
// @unchecked Sendable: built on the main thread, then touched only on the connection's thread
// (handlers, completions and `loop.execute` work); `BrokerObject` calls it from there too.
public final class PlayerTracker: @unchecked Sendable {
    public static let mprisPrefix = "org.mpris.MediaPlayer2."
    static let mprisPath: ObjectPath = "/org/mpris/MediaPlayer2"
    static let playerInterface: InterfaceName = "org.mpris.MediaPlayer2.Player"
    static let rootInterface: InterfaceName = "org.mpris.MediaPlayer2"
    /// How often a playing player is re-read by default in case it never signals (spotifyd, mopidy).
    public static let defaultSafetyRereadInterval: Duration = .seconds(30)
    /// Bounds on what other processes can make the broker hold (issue 3 §6). A connection's names
    /// beyond ``maxNamesPerConnection`` and players beyond ``maxPlayers`` are not followed, with one
    /// log line each time a limit is first hit (not one per name or signal).
    /// - ``maxNamesPerConnection``: MPRIS names one connection may own and be followed under (64:
    ///   a browser owns one per window or tab group, rarely more than a handful).
    /// - ``maxPlayers``: connections followed at once (256).
    public static let maxNamesPerConnection = 64
    public static let maxPlayers = 256
    /// Finished listens one player may have held while its app is being found (see `perform`).
    static let maxHeldListens = 256

    private let connection: BusConnection
    private let store: HistoryStore
    private let rule: ListenRule
    private let log: Log
    private unowned let controller: BrokerController
    /// What becomes of each listen, by the person's settings and the twin rule.
    private var recorder: ListenRecorder
    /// Listens a previous run left open (it crashed), by the player that was playing them; each
    /// waits for its player's first properties to decide whether it simply continues.
    private var leftovers = LeftoverListens()
    private var players: [String: Player] = [:]
    /// Well-known MPRIS name → the unique name that owns it.
    private var owners: [String: String] = [:]
    private var tokens: [MatchToken] = []
    private var stopped = false
    /// How often a playing player is re-read (``defaultSafetyRereadInterval``; shorter in tests).
    private let safetyRereadInterval: Duration
    /// Whether the "too many players" line was logged since the count last dropped below the limit.
    private var loggedPlayerLimit = false
    /// When the tracker began following the bus: no listen of a player met already playing is
    /// dated earlier (the previous run recorded what played before it stopped).
    private var startedAt: Microseconds = .max

    // @unchecked Sendable: like the tracker, touched only on the connection's thread.
    private final class Player: @unchecked Sendable {
        let uniqueName: String
        var busNames: Set<String> = [] {
            didSet { isProxy = busNames.contains(where: Self.isProxyName) }
        }
        /// Who it is (see ``PlayerIdentity``).
        var identity = PlayerIdentity()
        var playerRetry = ReadRetry()
        /// The timers of reads asked again after a failure (see ``ReadRetry``).
        var identityRetryTimer: TimerToken?
        var playerRetryTimer: TimerToken?
        /// The player interface has answered a read at least once.
        var hasReadPlayer = false
        /// When the broker began following it, and whether it has been Playing since.
        var metAt: Microseconds
        var hasPlayed = false
        /// Store work for this player's listens, held (coalesced) until its app is known.
        var waitingForApp = HeldListenEffects()
        var listening: PlayerListening
        var status: PlaybackStatus?
        /// The timer for the listen's next deadline and when it fires: a deadline no earlier than
        /// that keeps it (see `scheduleDeadline`).
        var deadlineTimer: (token: TimerToken, firesAt: Microseconds)?
        /// The last `Metadata` the player sent, decoded, and its last raw `Rate`: the same again in a
        /// signal that differs otherwise (a new status, say) is no event. Metadata that differs only
        /// in what decodes the same — a key the broker does not read (`mpris:artUrl`), whitespace
        /// it trims, a length it rejects either way — is no new track either, so it starts no re-read.
        var lastMetadata: TrackMetadata?
        var lastRate: DBusValue?
        /// The body of the last `PropertiesChanged` applied, kept only while nothing else has reached
        /// this player (see ``PlayerTracker/forgetLastSignal(of:)``). The same body again then changes
        /// nothing — its metadata, rate and status are the player's already, and it starts no read —
        /// so it is dropped without decoding (floods, quirk 8).
        var lastSignal: MessageBody?
        var rereadTimer: TimerToken?
        /// The name limit was hit and logged for this connection.
        var loggedNameLimit = false

        func cancelTimers() {
            deadlineTimer?.token.cancel()
            rereadTimer?.cancel()
            identityRetryTimer?.cancel()
            playerRetryTimer?.cancel()
        }

        init(uniqueName: String, rule: ListenRule, metAt: Microseconds) {
            self.uniqueName = uniqueName
            self.metAt = metAt
            self.listening = PlayerListening(rule: rule)
        }

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

        static func isProxyName(_ name: String) -> Bool {
            let stem = AppResolver.busNameStem(name)
            return stem.hasPrefix("kdeconnect") || stem == "plasma-browser-integration"
        }
    }

    /// `safetyRereadInterval`: how often a playing player is re-read in case it never signals; the
    /// default 30 s, shorter only in tests (`--reread-interval`).
    public init(controller: BrokerController, safetyRereadInterval: Duration = PlayerTracker.defaultSafetyRereadInterval) {
        self.safetyRereadInterval = max(safetyRereadInterval, .milliseconds(100))
        self.controller = controller
        self.connection = controller.connection
        self.store = controller.store
        self.rule = controller.rule
        self.log = controller.log
        self.recorder = ListenRecorder(privacy: controller.settings)
        controller.tracker = self
    }

    /// The person changed their settings: a listen in progress from an app that may no longer be
    /// recorded is discarded, not finished.
    func privacyChanged(_ settings: PrivacySettings) {
        recorder.privacy = settings
        for player in players.values {
            forgetLastSignal(of: player)
            if !settings.allows(player.appID) { handle(.discard, for: player) }
        }
    }

    /// The app a connection plays as, when it owns an MPRIS name; `nil` for anyone else.
    func appID(ofPlayer uniqueName: String) -> String? {
        guard let player = players[uniqueName], !player.busNames.isEmpty else { return nil }
        return player.appID
    }

    // MARK: Starting

    /// Subscribes to name changes, then lists the players already there — in that order, so a
    /// player starting in between is not missed. Call on the connection's thread.
    public func start(completion: @escaping @Sendable (BusError?) -> Void) {
        startedAt = now()
        let subscriptions: [Subscription] = [
            (MatchRule(sender: BusConnection.busName, interface: .bus, member: "NameOwnerChanged", path: BusConnection.busPath),
             { [self] in nameOwnerSignal($0) }),
            (MatchRule(interface: .properties, member: "PropertiesChanged", path: Self.mprisPath), { [self] in propertiesChanged($0) }),
            (MatchRule(interface: Self.playerInterface, member: "Seeked", path: Self.mprisPath), { [self] in seeked($0) }),
        ]
        subscribe(subscriptions[...]) { [self] error in
            if let error { return completion(error) }
            connection.callBus("ListNames") { [self] result in
                switch result {
                case .failure(let error): completion(error)
                case .success(let reply):
                    let names = (try? reply.first?.strings()) ?? []
                    for name in names where isPlayerName(name) { lookUpOwner(of: name) }
                    settleLeftovers(stillOnBus: Set(names))
                    completion(nil)
                }
            }
        }
    }

    private typealias Subscription = (rule: MatchRule, handler: @Sendable (BusMessage) -> Void)

    private func subscribe(_ subscriptions: ArraySlice<Subscription>, then done: @escaping @Sendable (BusError?) -> Void) {
        guard let subscription = subscriptions.first else { return done(nil) }
        connection.addMatch(subscription.rule, handler: subscription.handler) { [self] result in
            switch result {
            case .failure(let error): done(error)
            case .success(let token):
                tokens.append(token)
                subscribe(subscriptions.dropFirst(), then: done)
            }
        }
    }

    private func isPlayerName(_ name: String) -> Bool {
        // playerctld mirrors whichever player is active: never a source of its own.
        name.hasPrefix(Self.mprisPrefix) && name != Self.mprisPrefix + "playerctld"
    }

    private func lookUpOwner(of name: String) {
        connection.callBus("GetNameOwner", [.string(name)]) { [self] result in
            guard case .success(let reply) = result, let owner = try? reply.first?.string() else { return }
            // NameOwnerChanged may have told us first; only an unknown name is news.
            guard owners[name] == nil else { return }
            nameOwnerChanged(name, from: "", to: owner)
        }
    }

    // MARK: Messages

    private func nameOwnerSignal(_ message: BusMessage) {
        guard !stopped, message.sender == "org.freedesktop.DBus" || message.sender == BusConnection.busName.rawValue else { return }
        let arguments = message.arguments
        guard arguments.count == 3, let name = try? arguments[0].string(), isPlayerName(name),
              let old = try? arguments[1].string(), let new = try? arguments[2].string() else { return }
        nameOwnerChanged(name, from: old, to: new)
    }

    private func propertiesChanged(_ message: BusMessage) {
        guard !stopped, let sender = message.sender, let player = players[sender], message.path == Self.mprisPath else { return }
        guard message.body != player.lastSignal else { return }
        let startedRead = PropertiesChangedSignal(message.body, readingPropertiesOf: Self.playerInterface.rawValue)
            .map { apply($0, to: player) } ?? false
        player.lastSignal = startedRead ? nil : message.body
    }

    /// Applies a `PropertiesChanged` signal; returns whether that started a read of the player,
    /// which a repeat of the signal would start again (so it must not be dropped).
    private func apply(_ signal: PropertiesChangedSignal, to player: Player) -> Bool {
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

    private func seeked(_ message: BusMessage) {
        guard !stopped, let sender = message.sender, let player = players[sender], message.path == Self.mprisPath,
              let position = try? message.arguments.first?.integer(as: Int64.self) else { return }
        handle(.seeked(position: position), for: player)
    }

    /// Something other than a `PropertiesChanged` reached the player or changed what it is (a
    /// `Seeked`, a read's answer, a timer, a name, its app, the privacy settings): its last signal
    /// may no longer be a no-op, so the next one is applied even if it is the same.
    private func forgetLastSignal(of player: Player) {
        player.lastSignal = nil
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
            guard player.busNames.count < Self.maxNamesPerConnection else {
                if !player.loggedNameLimit {
                    player.loggedNameLimit = true
                    log.warning("\(new) owns more than \(Self.maxNamesPerConnection) MPRIS names; not following the rest")
                }
                return
            }
            owners[name] = new
            player.busNames.insert(name)
            return
        }
        guard players.count < Self.maxPlayers else {
            if !loggedPlayerLimit {
                loggedPlayerLimit = true
                log.warning("already following \(Self.maxPlayers) players; not following new ones until some leave")
            }
            return
        }
        owners[name] = new
        let player = Player(uniqueName: new, rule: rule, metAt: now())
        player.busNames.insert(name)
        players[new] = player
        log.info("following player \(name) (\(new))")
        withProcessID(of: player) { _ in }
        readIdentity(of: player)
        readPlayerProperties(of: player)
    }

    private func playerLeft(_ player: Player) {
        log.info("player \(player.appID) (\(player.uniqueName)) left the bus")
        resolveNowIfPending(player)
        handle(.playerGone, for: player)
        player.cancelTimers()
        players[player.uniqueName] = nil
        if players.count < Self.maxPlayers { loggedPlayerLimit = false }
        releaseBarriersIfSettled()
    }

    // MARK: Reading properties

    /// Reads `Identity` and `DesktopEntry`, then resolves the app (desktop file, icon, Flatpak or
    /// snap sandbox from the player's process) on the resolver's own thread. A read that fails — the
    /// player owns its name but has not exported its object yet — is asked again (``ReadRetry``),
    /// and at once when the player interface first answers; the app is resolved only from an
    /// answer, or from the name and process alone once the player was given up on.
    private func readIdentity(of player: Player) {
        player.identityRetryTimer?.cancel()
        player.identityRetryTimer = nil
        player.identity.isFindingApp = true
        getAll(Self.rootInterface, of: player) { [self] result in
            player.identity.isFindingApp = false
            switch result {
            case .success(let properties):
                player.identity.answered(properties)
                resolveApp(of: player)
            case .failure(let error):
                switch player.identity.failed(at: MonotonicClock.microseconds) {
                case .askAgain(let delay):
                    log.debug("\(player.uniqueName) did not tell its identity (\(error.name)); asking again in \(delay / 1000) ms")
                    player.identityRetryTimer = retry(after: delay, for: player) { [self] in readIdentity(of: $0) }
                case .resolveWithout:
                    log.warning("\(player.uniqueName) never told its identity (\(error.name)); its app is found from its name and process")
                    resolveApp(of: player)
                case .nothing:
                    break
                }
            }
            releaseBarriersIfSettled()
        }
    }

    /// Runs `read` for `player` after `delay` µs, unless it left meanwhile.
    private func retry(after delay: Microseconds, for player: Player, _ read: @escaping @Sendable (Player) -> Void) -> TimerToken {
        connection.schedule(after: .microseconds(delay)) { [self] in
            guard players[player.uniqueName] === player else { return }
            read(player)
        }
    }

    /// Calls `body` with the process id of the player's connection, asking the bus daemon once.
    private func withProcessID(of player: Player, _ body: @escaping @Sendable (UInt32?) -> Void) {
        if let known = player.identity.processID { return body(known) }
        connection.callBus("GetConnectionUnixProcessID", [.string(player.uniqueName)], timeout: .seconds(5)) { [self] result in
            let pid = (try? result.get().first?.integer(as: UInt32.self)) ?? nil
            if player.identity.processID == nil { player.identity.processID = .some(pid) }
            guard players[player.uniqueName] === player else { return }
            body(pid)
        }
    }

    private func resolveApp(of player: Player) {
        player.identity.isFindingApp = true
        withProcessID(of: player) { [self] pid in
            guard let clues = player.identity.clues(busNames: player.busNames) else { return }
            let loop = connection.loop
            controller.resolver.resolve(clues) { [self] app in
                loop.execute { [self] in appResolved(app, for: player) }
            }
        }
    }

    private func appResolved(_ app: AppIdentity, for player: Player) {
        guard players[player.uniqueName] === player else { return }
        forgetLastSignal(of: player)
        player.identity.isFindingApp = false
        let (isNew, changedApp) = player.identity.resolved(app)
        if isNew { log.info("player \(player.uniqueName) is app \(app.appID)") }
        if player.waitingForApp.coalesced > 0 {
            log.info("\(player.uniqueName) (\(app.appID)): coalesced \(player.waitingForApp.coalesced) listen updates while its app was being found")
        }
        for held in player.waitingForApp.takeAll() {
            performNow(held.effect, for: player, settingsThen: held.settings)
        }
        if !recorder.privacy.allows(app.appID) {
            handle(.discard, for: player)
        } else if changedApp {
            handle(.appChanged, for: player)
        }
        releaseBarriersIfSettled()
    }

    private var barriers: [() -> Void] = []

    /// Runs `work` once no player holds store work waiting for an answer about its app that is on
    /// its way — so what `Status` reports (and a store query queued after it) reflects everything
    /// the broker has seen. A player that has not told its identity and waits to be asked again
    /// (``ReadRetry``) is not waited for: `Status` answers at once.
    func whenSettled(_ work: @escaping () -> Void) {
        barriers.append(work)
        releaseBarriersIfSettled()
    }

    private func releaseBarriersIfSettled() {
        guard !barriers.isEmpty, players.values.allSatisfy({ $0.waitingForApp.isEmpty || !$0.identity.isFindingApp }) else { return }
        let ready = barriers
        barriers.removeAll()
        for work in ready { work() }
    }

    /// A player leaving (or the broker stopping) before its app resolved: resolve it here, on this
    /// thread — a rare path, and its held store work must not be lost or done under a guessed id.
    private func resolveNowIfPending(_ player: Player) {
        guard player.app == nil, let clues = player.identity.clues(busNames: player.busNames) else { return }
        appResolved(controller.resolver.resolve(clues), for: player)
    }

    /// Reads the player interface, asked again like the root interface until it first answers
    /// (the player may not have exported its object yet). Its first answer also asks again at once for an identity that
    /// failed: the object is there now.
    private func readPlayerProperties(of player: Player) {
        player.playerRetryTimer?.cancel()
        player.playerRetryTimer = nil
        getAll(Self.playerInterface, of: player) { [self] result in
            switch result {
            case .success(let properties):
                player.playerRetry = ReadRetry()
                if !player.hasReadPlayer {
                    player.hasReadPlayer = true
                    if player.identityRetryTimer != nil { readIdentity(of: player) }
                }
                if let waiting = leftovers.take(for: player.uniqueName) {
                    resume(waiting, of: player, from: properties)
                } else {
                    apply(PlayerProperties(properties), to: player)
                }
            case .failure(let error):
                // Once it has answered, its object is there: a failure then is the player's own
                // (the next signal or safety re-read asks again).
                guard !player.hasReadPlayer, let delay = player.playerRetry.failed(at: MonotonicClock.microseconds) else {
                    return log.debug("could not read \(Self.playerInterface) of \(player.uniqueName): \(error)")
                }
                player.playerRetryTimer = retry(after: delay, for: player) { [self] in readPlayerProperties(of: $0) }
            }
        }
    }

    /// `GetAll` of `interface`; `body` runs only while the player is still followed. An answer that
    /// is not a dictionary is an empty one.
    private func getAll(_ interface: InterfaceName, of player: Player,
                        _ body: @escaping @Sendable (Result<[String: DBusValue], BusError>) -> Void) {
        callProperties("GetAll", [.string(interface.rawValue)], of: player) { result in
            body(result.map { (try? $0.first?.vardict()) ?? [:] })
        }
    }

    /// Calls `member` of the Properties interface on the player's object; `body` runs only while
    /// the player is still followed (it may have left while the broker waited).
    private func callProperties(_ member: MemberName, _ arguments: [DBusValue], of player: Player,
                                _ body: @escaping @Sendable (Result<[DBusValue], BusError>) -> Void) {
        guard let destination = try? BusName(player.uniqueName) else { return }
        let call = MethodCall(destination: destination, path: Self.mprisPath, interface: .properties, member: member,
                              arguments: arguments, allowsAutoStart: false)
        connection.call(call, timeout: .seconds(5)) { [self] result in
            guard players[player.uniqueName] === player else { return }
            forgetLastSignal(of: player)
            body(result.map(\.arguments))
        }
    }

    /// Feeds the properties a player reported to its listening state, metadata first: a track
    /// change often arrives together with its status. The position comes before Playing (a player
    /// met already playing began where it says) and after Paused (Paused at the end is the end).
    /// Returns whether `Metadata` named a new track — not a repeat, and not the same track told
    /// again with a field filled in or revised (Chromium's growing `mpris:length` when a server
    /// has no range requests, each of which would otherwise start a read).
    @discardableResult
    private func apply(_ properties: PlayerProperties, to player: Player) -> Bool {
        var newTrack = false
        if let metadata = properties.metadata, metadata != player.lastMetadata {
            newTrack = player.lastMetadata.map { !metadata.isSameTrack(as: $0) && !metadata.fillsIn(untitled: $0) } ?? true
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
            player.status = status
            handle(event(for: status, of: player), for: player)
            if changed || player.rereadTimer == nil { scheduleSafetyReread(of: player) }
            // Paused at the track's end is the track ended: where is it? (Firefox's `<audio>`.)
            if changed, status == .paused, position == nil { readPosition(of: player) }
        }
        if let position, status == .paused { handle(.position(position), for: player) }
        return newTrack
    }

    /// The event for a status the player reported: its first Playing may have begun earlier
    /// (``LateStart``).
    private func event(for status: PlaybackStatus, of player: Player) -> PlayerEvent {
        guard status == .playing, !player.hasPlayed else { return .playbackStatus(status) }
        player.hasPlayed = true
        let current = now()
        let listening = player.listening
        guard let began = LateStart.began(position: listening.position(at: current), rate: listening.rate,
                                          length: listening.metadata?.length, metAt: player.metAt,
                                          followingSince: startedAt, now: current)
        else { return .playbackStatus(status) }
        return .playingSince(began)
    }

    /// Reads `Position` (it never signals).
    private func readPosition(of player: Player) {
        let arguments: [DBusValue] = [.string(Self.playerInterface.rawValue), .string(PlayerProperties.positionName)]
        callProperties("Get", arguments, of: player) { [self] result in
            guard case .success(let values) = result, let value = values.first, let position = TrackMetadata.microseconds(value)
            else { return }
            handle(.position(position), for: player)
        }
    }

    /// While a player plays, re-read it now and then: some never signal. Nothing runs while
    /// nothing plays.
    private func scheduleSafetyReread(of player: Player) {
        player.rereadTimer?.cancel()
        player.rereadTimer = nil
        guard player.status == .playing, !stopped else { return }
        player.rereadTimer = connection.schedule(after: safetyRereadInterval) { [self] in
            guard players[player.uniqueName] === player else { return }
            player.rereadTimer = nil
            forgetLastSignal(of: player)
            readPlayerProperties(of: player)
        }
    }

    // MARK: Listens

    private func now() -> Microseconds { WallClock.now }

    private func handle(_ event: PlayerEvent, for player: Player) {
        forgetLastSignal(of: player)
        let effects = player.listening.handle(event, at: now())
        // Nothing to store opens no unit: even an empty one wakes the store thread when it closes.
        guard !effects.isEmpty else { return scheduleDeadline(for: player) }
        // One event's store work (a track change finishes a listen and opens the next) is one unit:
        // one transaction, one fsync — shared with the next events' when a player floods them.
        store.together(.noOneWaits) { for effect in effects { perform(effect, for: player) } }
        scheduleDeadline(for: player)
    }

    private func scheduleDeadline(for player: Player) {
        let current = now()
        let deadline = stopped ? nil : player.listening.nextDeadline(at: current)
        // A timer armed for no later than the deadline stays: if it fires early, the tick finds
        // nothing due and arms the next. Most track changes move the deadline later (the next
        // checkpoint), and cancelling and scheduling a timer on each showed in the track-change
        // profile (README, Performance).
        if let deadline, let armed = player.deadlineTimer, armed.firesAt <= deadline { return }
        player.deadlineTimer?.token.cancel()
        player.deadlineTimer = nil
        guard let deadline else { return }
        let delay = Duration.microseconds(max(0, deadline - current))
        let token = connection.schedule(after: delay) { [self] in
            guard players[player.uniqueName] === player else { return }
            player.deadlineTimer = nil
            handle(.tick, for: player)
        }
        player.deadlineTimer = (token, deadline)
    }

    private func asset(_ listen: Listen, of player: Player) -> MediaAsset? {
        listen.asset(appID: player.appID, appName: player.appName, appIcon: player.app?.appIcon)
    }

    /// Hands an effect to the recorder once the player's app is known; until then it is held
    /// (see ``HeldListenEffects``) with the settings in force when it happened.
    private func perform(_ effect: ListenEffect, for player: Player) {
        guard player.app == nil else { return performNow(effect, for: player, settingsThen: CollectionOfOne(recorder.privacy)) }
        player.waitingForApp.hold(effect, settings: recorder.privacy)
        // Finished listens qualified and are never dropped, so they are what a flood could pile
        // up: past a bound the app is resolved now, from the clues at hand.
        if player.waitingForApp.finishedCount >= Self.maxHeldListens {
            log.warning("\(player.uniqueName) finished \(Self.maxHeldListens) listens before its app was known; resolving it now")
            resolveNowIfPending(player)
        }
    }

    /// Does what the recorder decides for `effect` (see ``ListenRecorder``).
    private func performNow(_ effect: ListenEffect, for player: Player, settingsThen: some Collection<PrivacySettings>) {
        let source = ListenRecorder.Source(uniqueName: player.uniqueName, appID: player.appID, appName: player.appName,
                                           appIcon: player.app?.appIcon, isProxy: player.isProxy)
        let current = now()
        let work = recorder.perform(effect, from: source, settingsThen: settingsThen, at: current) {
            players.values.compactMap { other in
                guard other !== player, let playing = other.listening.current(at: current) else { return nil }
                return TwinRule.Playing(listen: playing, isProxy: other.isProxy)
            }
        }
        switch work {
        case .saveOpenListen(let key, let asset, let checkpoint):
            store.saveOpenListen(key: key, asset: asset, checkpoint: checkpoint) { [log] result in
                if case .failure(let error) = result { log.warning("could not checkpoint a listen: \(error)") }
            }
        case .removeOpenListen(let key):
            store.removeOpenListen(key: key) { _ in }
        case .removeTwin(let key):
            log.debug("\(player.uniqueName) mirrored a listen recorded from another player; not counted twice")
            store.removeOpenListen(key: key) { _ in }
        case .record(let asset, let openKey):
            controller.record(asset, openKey: openKey)
        case nil:
            break
        }
    }

    /// Takes the listens a previous run left open (a crash or `kill -9`). Call before ``start``.
    /// A listen whose player is still on the bus playing the same track simply continues — the
    /// time the broker was down counts; any other is finished at its last checkpoint and recorded
    /// if it qualifies.
    public func adoptLeftovers(_ open: [OpenListen]) {
        leftovers.adopt(open)
    }

    private func settleLeftovers(stillOnBus names: Set<String>) {
        leftovers.takeGone(stillOnBus: names).forEach(finishLeftover)
        guard !leftovers.isEmpty else { return }
        _ = connection.schedule(after: LeftoverListens.patience) { [self] in leftovers.takeAll().forEach(finishLeftover) }
    }

    private func resume(_ waiting: [OpenListen], of player: Player, from properties: [String: DBusValue]) {
        var remaining = waiting
        if let first = remaining.first,
           let resumed = LeftoverListens.resuming(first, with: properties, rule: rule,
                                                  recordingAllowed: recorder.privacy.allows(player.appID), at: now()) {
            remaining.removeFirst()
            player.listening = resumed
            player.status = resumed.status
            log.info("resumed a listen on \(player.uniqueName) left open by the previous run")
            handle(.tick, for: player)
            scheduleSafetyReread(of: player)
        }
        remaining.forEach(finishLeftover)
        if remaining.count == waiting.count { apply(PlayerProperties(properties), to: player) }
    }

    private func finishLeftover(_ leftover: OpenListen) {
        switch LeftoverListens.finishing(leftover, rule: rule, privacy: recorder.privacy) {
        case .record(let asset, let openKey): controller.record(asset, openKey: openKey)
        default: store.removeOpenListen(key: leftover.key) { _ in }
        }
    }

    /// Ends every listen (the broker is stopping) and unsubscribes. Call on the connection's thread.
    public func stop() {
        guard !stopped else { return }
        for player in players.values {
            resolveNowIfPending(player)
            handle(.brokerStopping, for: player)
            player.cancelTimers()
        }
        stopped = true
        for token in tokens { token.cancel() }
        tokens.removeAll()
    }

    // MARK: BrokerState

    public func nowPlaying() -> [MediaAsset] {
        let now = now()
        return players.values.compactMap { player in player.listening.current(at: now).flatMap { asset($0, of: player) } }
            .sorted { $0.started > $1.started }
    }

    public func followedPlayers() -> [PlayerSummary] {
        players.values.flatMap { player in
            player.busNames.sorted().map { name in
                PlayerSummary(busName: name, uniqueName: player.uniqueName, appID: player.appID,
                              playbackStatus: player.status?.rawValue)
            }
        }.sorted { $0.busName < $1.busName }
    }
}
