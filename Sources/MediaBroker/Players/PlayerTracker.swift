public import SwiftDBus

/// Follows every MPRIS player on the bus: the runtime of ``PlayersCore``. It subscribes to the
/// signals, hands each one to the core, and carries out what the core answers — reads, timers,
/// app lookups, store work, log lines — feeding the outcomes back.
///
/// Everything here runs on the bus connection's thread — handlers, replies and timers — so the
/// state needs no lock.
// @unchecked Sendable: built on the main thread, then touched only on the connection's thread
// (handlers, completions and `loop.execute` work); `BrokerObject` calls it from there too.
public final class PlayerTracker: @unchecked Sendable {
    public static let mprisPrefix = PlayersCore.mprisPrefix
    /// How often a playing player is re-read by default in case it never signals (spotifyd, mopidy).
    public static let defaultSafetyRereadInterval: Duration = .seconds(30)

    private let connection: BusConnection
    private let store: HistoryStore
    private let log: Log
    private unowned let controller: BrokerController
    private let core: PlayersCore
    private var timers: [PlayersCore.Timer: TimerToken] = [:]
    private var tokens: [MatchToken] = []
    private var stopped = false
    private var barriers: [() -> Void] = []
    /// Reads the art players point at, off the bus thread; made at the first art told.
    private var artworkReads: ArtworkReads?

    /// `safetyRereadInterval`: how often a playing player is re-read in case it never signals; the
    /// default 30 s, shorter only in tests (`--reread-interval`).
    public init(controller: BrokerController, safetyRereadInterval: Duration = PlayerTracker.defaultSafetyRereadInterval) {
        self.controller = controller
        self.connection = controller.connection
        self.store = controller.store
        self.log = controller.log
        let resolver = controller.resolver
        self.core = PlayersCore(rule: controller.rule, privacy: controller.settings,
                                safetyRereadInterval: max(safetyRereadInterval, .milliseconds(100)).wholeMicroseconds,
                                artworkFolder: controller.store.path.flatMap(ArtworkFolder.path(besideDatabase:)),
                                resolveNow: { resolver.resolve($0) })
        core.logsPlayerEvents = controller.log.threshold == .debug
        controller.tracker = self
    }

    /// The person changed their settings: a listen in progress from an app that may no longer be
    /// recorded is discarded, not finished.
    func privacyChanged(_ settings: PrivacySettings) {
        feed(.privacyChanged(settings))
    }

    /// The app a connection plays as, when it owns an MPRIS name; `nil` for anyone else.
    func appID(ofPlayer uniqueName: String) -> String? { core.appID(ofPlayer: uniqueName) }

    public func nowPlaying() -> [MediaAsset] { core.nowPlaying() }

    public func followedPlayers() -> [PlayerSummary] { core.followedPlayers() }

    /// Takes the listens a previous run left open (a crash or `kill -9`). Call before ``start``.
    public func adoptLeftovers(_ open: [OpenListen]) {
        core.adoptLeftovers(open)
    }

    // MARK: Starting and stopping

    /// Subscribes to name changes, then lists the players already there — in that order, so a
    /// player starting in between is not missed. Call on the connection's thread.
    public func start(completion: @escaping @Sendable (BusError?) -> Void) {
        core.begin()
        let subscriptions: [Subscription] = [
            (MatchRule(sender: BusConnection.busName, interface: .bus, member: "NameOwnerChanged", path: BusConnection.busPath),
             { [self] in nameOwnerSignal($0) }),
            (MatchRule(interface: .properties, member: "PropertiesChanged", path: PlayersCore.mprisPath),
             { [self] in feedSignal(.propertiesChanged(sender: $0.sender ?? "", path: $0.path, body: $0.body)) }),
            (MatchRule(interface: PlayersCore.playerInterface, member: "Seeked", path: PlayersCore.mprisPath),
             { [self] in feedSignal(.seeked(sender: $0.sender ?? "", path: $0.path, position: Self.position(in: $0))) }),
        ]
        subscribe(subscriptions[...]) { [self] error in
            if let error { return completion(error) }
            connection.callBus("ListNames") { [self] result in
                switch result {
                case .failure(let error): completion(error)
                case .success(let reply):
                    feed(.listed(names: (try? reply.first?.strings()) ?? []))
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

    /// Ends every listen (the broker is stopping) and unsubscribes. Call on the connection's thread.
    public func stop() {
        guard !stopped else { return }
        feed(.stop)
        stopped = true
        for token in tokens { token.cancel() }
        tokens.removeAll()
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
        artworkReads?.shutdown()
        artworkReads = nil
    }

    /// Runs `work` once no player holds store work waiting for an answer about its app that is on
    /// its way (``PlayersCore/isSettled``) — so what `Status` reports (and a store query queued
    /// after it) reflects everything the broker has seen.
    func whenSettled(_ work: @escaping () -> Void) {
        barriers.append(work)
        releaseBarriersIfSettled()
    }

    private func releaseBarriersIfSettled() {
        guard !barriers.isEmpty, core.isSettled else { return }
        let ready = barriers
        barriers.removeAll()
        for work in ready { work() }
    }

    // MARK: Signals

    /// Only the bus daemon speaks for names.
    private func nameOwnerSignal(_ message: BusMessage) {
        guard message.sender == "org.freedesktop.DBus" || message.sender == BusConnection.busName.rawValue else { return }
        let arguments = message.arguments
        guard arguments.count == 3, let name = try? arguments[0].string(),
              let old = try? arguments[1].string(), let new = try? arguments[2].string() else { return }
        feed(.nameOwnerChanged(name: name, old: old, new: new))
    }

    private static func position(in message: BusMessage) -> Microseconds? {
        try? message.arguments.first?.integer(as: Int64.self)
    }

    private func feedSignal(_ input: PlayersCore.Input) {
        guard !stopped else { return }
        feed(input)
    }

    // MARK: Carrying out

    /// Actions handed to the core to fill, reused from one input to the next.
    private var spareActions: [PlayersCore.Action] = []

    /// Hands `input` to the core and carries out what it says; the store work of one input is one
    /// unit (one transaction, shared with the next inputs' while a player floods them).
    private func feed(_ input: PlayersCore.Input) {
        // A feed while another carries out its actions (an answer given at once) gets a new buffer.
        var actions = spareActions
        spareActions = []
        core.handle(input, into: &actions)
        // Visited in place: an action holding store work carries a whole asset, not copied twice.
        var storesSomething = false
        for index in actions.indices {
            if case .store = actions[index] { storesSomething = true } else { perform(actions[index]) }
        }
        if storesSomething {
            store.together(.noOneWaits) {
                for index in actions.indices { if case .store(let work) = actions[index] { carryOut(work) } }
            }
        }
        actions.removeAll(keepingCapacity: true)
        spareActions = actions
        releaseBarriersIfSettled()
    }

    private func perform(_ action: PlayersCore.Action) {
        switch action {
        case .lookUpOwner(let name):
            connection.callBus("GetNameOwner", [.string(name)]) { [self] result in
                guard case .success(let reply) = result, let owner = try? reply.first?.string() else { return }
                feed(.ownerFound(name: name, owner: owner))
            }
        case .listNames:
            connection.callBus("ListNames", timeout: .seconds(5)) { [self] result in
                feed(.onBus(names: try? result.get().first?.strings()))
            }
        case .read(let ref, let read):
            self.read(read, of: ref)
        case .askProcessID(let ref):
            connection.callBus("GetConnectionUnixProcessID", [.string(ref.uniqueName)], timeout: .seconds(5)) { [self] result in
                let pid = (try? result.get().first?.integer(as: UInt32.self)) ?? nil
                feed(.processFound(ref, pid.map { controller.gate.process(of: ref.uniqueName, processID: $0) }))
            }
        case .resolveApp(let ref, let clues):
            let loop = connection.loop
            controller.resolver.resolve(clues) { [self] app in
                loop.execute { [self] in feed(.appResolved(ref, app)) }
            }
        case .secureArtwork(let ref, let url, let process):
            // The reads hold the tracker until `stop` lets them go.
            let reads = artworkReads ?? ArtworkReads { [self, loop = connection.loop] found in
                loop.execute { [self] in for art in found { feed(.artworkSecured(art.player, url: art.url, art.artwork)) } }
            }
            artworkReads = reads
            reads.ask(ArtworkReads.Request(player: ref, url: url, process: process))
        case .arm(let timer, let delay):
            timers[timer]?.cancel()
            timers[timer] = connection.schedule(after: .microseconds(delay)) { [self] in
                timers[timer] = nil
                feed(.timerFired(timer))
            }
        case .cancel(let timer):
            timers.removeValue(forKey: timer)?.cancel()
        case .store(let work):
            carryOut(work)
        case .log(let level, let message):
            log.write(level, message)
        }
    }

    /// Calls the Properties interface on the player's object: `GetAll` of an interface, or `Get`
    /// of `Position`.
    private func read(_ read: PlayersCore.Read, of ref: PlayerRef) {
        let player = PlayersCore.playerInterface.rawValue
        let (member, arguments): (MemberName, [DBusValue]) = switch read {
        case .identity: ("GetAll", [.string(PlayersCore.rootInterface.rawValue)])
        case .player: ("GetAll", [.string(player)])
        case .position: ("Get", [.string(player), .string(PlayerProperties.positionName)])
        }
        guard let destination = try? BusName(ref.uniqueName) else {
            return feed(.answered(ref, read, .failure(.invalidArgs("'\(ref.uniqueName)' is not a bus name"))))
        }
        let call = MethodCall(destination: destination, path: PlayersCore.mprisPath, interface: .properties, member: member,
                              arguments: arguments, allowsAutoStart: false)
        connection.call(call, timeout: .seconds(5)) { [self] result in
            feed(.answered(ref, read, result.map(\.arguments)))
        }
    }

    private func carryOut(_ work: ListenRecorder.StoreWork) {
        switch work {
        case .saveOpenListen(let key, let asset, let checkpoint):
            store.saveOpenListen(key: key, asset: asset, checkpoint: checkpoint) { [log] result in
                if case .failure(let error) = result { log.warning("could not checkpoint a listen: \(error)") }
            }
        case .removeOpenListen(let key), .removeTwin(let key):
            store.removeOpenListen(key: key) { _ in }
        case .record(let asset, let openKey):
            controller.record(asset, openKey: openKey)
        case .keepArtwork(let artwork):
            store.keepArtwork(artwork) { [log] result in
                if case .failure(let error) = result { log.warning("could not keep a listen's art: \(error)") }
            }
        }
    }
}
