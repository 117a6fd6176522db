import Clocks
import SwiftDBus
import BrokerCore

/// Follows every MPRIS player on the bus: the runtime of ``PlayersCore``. It subscribes to the
/// signals, hands each one to the core, and carries out what the core answers — reads, timers,
/// app lookups, store work, log lines — feeding the outcomes back.
///
/// Everything here runs on the bus connection's thread — handlers, replies and timers — so the
/// state needs no lock.
// @unchecked Sendable: built on the main thread, then touched only on the connection's thread
// (handlers, completions and `loop.execute` work); `BrokerObject` calls it from there too.
final class PlayerTracker: @unchecked Sendable, SettingsKeeper.Observer, NameWatch.Observer {
    /// How often a playing player is re-read by default in case it never signals (spotifyd, mopidy).
    static let defaultSafetyRereadInterval: Duration = .seconds(30)

    private let connection: BusConnection
    private let writer: HistoryWriter
    private let resolver: AppResolver
    private let arrivals: ConnectionArrivals
    private let log: Log
    private let core: PlayersCore
    private var timers: [PlayersCore.Timer: TimerToken] = [:]
    private var tokens: [MatchToken] = []
    private var started = false
    private var stopped = false
    private var barriers: [() -> Void] = []
    /// Reads the art players point at, off the bus thread; made at the first art told.
    private var artworkReads: ArtworkReads?
    /// The last `PropertiesChanged` handed to the core and its sender: the same bytes again may
    /// be a repeat the core drops without their being read (floods, quirk 8).
    private var lastSignal: (sender: String, body: MessageBody)?
    /// Asks the person about new apps: given at ``start(askingWith:completion:)``, since its
    /// answers go through the settings keeper, which is built after the tracker it tells of changes.
    private var questions: NewAppQuestions?

    /// `settings`: those in force as it starts (later ones come through ``settingsChanged(_:)``);
    /// `safetyRereadInterval`: how often a playing player is re-read in case it never signals, the
    /// default 30 s, shorter only in tests (`--reread-interval`); `artworkFolder`: where the art
    /// of listens is kept, if anywhere.
    init(connection: BusConnection, writer: HistoryWriter, resolver: AppResolver, arrivals: ConnectionArrivals,
         settings: PrivacySettings, rule: ListenRule, safetyRereadInterval: Duration = PlayerTracker.defaultSafetyRereadInterval,
         artworkFolder: String?, log: Log) {
        self.connection = connection
        self.writer = writer
        self.resolver = resolver
        self.arrivals = arrivals
        self.log = log
        self.core = PlayersCore(rule: rule, privacy: settings,
                                safetyRereadInterval: max(safetyRereadInterval, .milliseconds(100)).wholeMicroseconds,
                                artworkFolder: artworkFolder, resolveNow: { resolver.resolve($0) })
        core.logsPlayerEvents = log.threshold == .debug
    }

    /// The person changed their settings: a listen in progress from an app that may no longer be
    /// recorded is discarded, not finished.
    func settingsChanged(_ change: SettingsChange) {
        feed(.privacyChanged(change.after))
    }

    /// The app a connection plays as, when it owns an MPRIS name; `nil` for anyone else.
    func appID(ofPlayer uniqueName: String) -> String? { core.appID(ofPlayer: uniqueName) }

    func nowPlaying() -> [MediaAsset] { core.nowPlaying() }

    func followedPlayers() -> [PlayerSummary] { core.followedPlayers() }

    func appsAskedAbout() -> Set<String> { core.appsAskedAbout() }

    /// Takes the listens a previous run left open (a crash or `kill -9`). Call before ``start``.
    func adoptLeftovers(_ open: [OpenListen]) {
        core.adoptLeftovers(open)
    }

    // MARK: Starting and stopping

    /// Takes name changes from now on (the ``NameWatch`` is in force), subscribes to players'
    /// signals, then lists the players already there — in that order, so a player starting in
    /// between is not missed; new apps are asked about with `questions`. Call on the connection's
    /// thread.
    func start(askingWith questions: NewAppQuestions, completion: @escaping @Sendable (BusError?) -> Void) {
        self.questions = questions
        core.begin()
        started = true
        let subscriptions: [Subscription] = [
            (MatchRule(interface: .properties, member: "PropertiesChanged", path: Self.mprisPath),
             { [self] in propertiesChanged($0) }),
            (MatchRule(interface: Self.playerInterface, member: "Seeked", path: Self.mprisPath),
             { [self] in feedSignal(.seeked(sender: $0.sender ?? "", path: $0.path?.rawValue, position: Self.position(in: $0))) }),
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
    func stop() {
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

    /// `name` has a new owner (`new`; empty: none), as the ``NameWatch`` heard it.
    func ownerChanged(name: String, old: String, new: String) {
        feedSignal(.nameOwnerChanged(name: name, old: old, new: new))
    }

    private static let mprisPath = ObjectPath(stringLiteral: PlayersCore.mprisPath)
    private static let playerInterface = InterfaceName(stringLiteral: PlayersCore.playerInterface)

    private static func position(in message: BusMessage) -> Microseconds? {
        try? message.arguments.first?.integer(as: Int64.self)
    }

    private func feedSignal(_ input: PlayersCore.Input) {
        guard started, !stopped else { return }
        feed(input)
    }

    /// Hands a `PropertiesChanged` to the core: one whose bytes and sender are those of the last
    /// one goes undecoded, as a repeat, unless the core needs it read (``PlayersCore/repeatedSignal(from:)``).
    private func propertiesChanged(_ message: BusMessage) {
        guard started, !stopped else { return }
        let sender = message.sender ?? ""
        if let last = lastSignal, last.sender == sender, last.body == message.body,
           let actions = core.repeatedSignal(from: sender) {
            return carryOut(actions)
        }
        // A connection that is no player of ours (a hostile flood on the MPRIS path) is not decoded.
        guard core.follows(sender) else { return feed(.propertiesChanged(sender: sender, path: message.path?.rawValue, signal: nil)) }
        lastSignal = (sender, message.body)
        feed(.propertiesChanged(sender: sender, path: message.path?.rawValue,
                                signal: PropertiesChangedSignal(message.body, readingPropertiesOf: PlayersCore.playerInterface)))
    }

    // MARK: Carrying out

    /// Hands `input` to the core and carries out what it says.
    private func feed(_ input: PlayersCore.Input) {
        carryOut(core.handle(input))
    }

    /// Carries out what the core said about one input; its store work goes to the writer as one
    /// unit (one transaction, shared with the next inputs' while a player floods them). The actions
    /// are visited in place, not copied: store work carries whole assets (the `track_change_no_art` row).
    private func carryOut(_ actions: [PlayersCore.Action]) {
        var storesSomething = false
        for index in actions.indices {
            if case .store = actions[index] { storesSomething = true } else { perform(actions[index]) }
        }
        if storesSomething {
            writer.together {
                for index in actions.indices { if case .store(let work) = actions[index] { writer.carryOut(work) } }
            }
        }
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
                feed(.processFound(ref, pid.map { arrivals.process(of: ref.uniqueName, processID: $0) }))
            }
        case .resolveApp(let ref, let clues):
            let loop = connection.loop
            resolver.resolve(clues) { [self] app in
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
            writer.together { writer.carryOut(work) }
        case .log(let level, let message):
            log.write(level, message)
        case .askAboutApp(let appID, let name, let icon):
            questions?.ask(about: appID, name: name, icon: icon) { [self] in feedSignal(.appQuestionUnanswered(appID: appID)) }
        case .withdrawQuestion(let appID):
            questions?.withdraw(about: appID)
        }
    }

    /// Calls the Properties interface on the player's object: `GetAll` of an interface, or `Get`
    /// of `Position`.
    private func read(_ read: PlayersCore.Read, of ref: PlayerRef) {
        let player = PlayersCore.playerInterface
        let (member, arguments): (MemberName, [DBusValue]) = switch read {
        case .identity: ("GetAll", [.string(PlayersCore.rootInterface)])
        case .player: ("GetAll", [.string(player)])
        case .position: ("Get", [.string(player), .string(PlayerProperties.positionName)])
        }
        guard let destination = try? BusName(ref.uniqueName) else {
            return feed(.answered(ref, .failed(read, reason: "'\(ref.uniqueName)' is not a bus name")))
        }
        let call = MethodCall(destination: destination, path: Self.mprisPath, interface: .properties, member: member,
                              arguments: arguments, allowsAutoStart: false)
        connection.call(call, timeout: .seconds(5)) { [self] result in
            feed(.answered(ref, PlayersCore.Answer(read, result.map(\.arguments))))
        }
    }
}
