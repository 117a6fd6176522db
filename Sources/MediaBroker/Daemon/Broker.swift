import SwiftDBus
import BrokerCore

/// The composition root: builds every part of the running broker, in order, handing each what it
/// uses in its `init`, so each part's `init` says what it depends on and nothing is wired later.
/// Settings, connections and live listens flow one way: a part is told of a change through the
/// observers it was built with (``SettingsKeeper/Observer``, ``NameWatch/Observer``).
///
/// A track change runs: ``PlayerTracker`` → ``HistoryWriter`` → the store → ``HistoryWriter`` →
/// ``Announcer`` (`MediaAdded`). A call runs: the object (``BrokerObject``) → ``ReaderGate/admit``
/// → the part that answers it.
///
/// Lives on the connection's thread once built (``BrokerDaemon`` builds it on the main thread
/// before anything is served).
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
final class Broker: @unchecked Sendable {
    private let connection: BusConnection
    private let names: NameWatch
    private let players: PlayerTracker
    private let writer: HistoryWriter
    private let eraser: HistoryEraser
    private let gate: ReaderGate
    private let notifications: DesktopNotifications
    private let questions: AccessNotifications
    private let newApps: NewAppQuestions
    private let picks: PickRequests
    private let keeper: SettingsKeeper
    private let suggestions: JournalSuggestions
    private let object: BrokerObject.Parts

    init(connection: BusConnection, store: HistoryStore, settings loaded: PrivacySettings, rules: CorrectionRules,
         suggestionSettings: SuggestionSettings, options: BrokerOptions, environment: [String: String], log: Log) {
        let settings = CurrentSettings(loaded)
        let resolver = AppResolver(environment: environment)
        let arrivals = ConnectionArrivals()
        let announcer = Announcer(connection: connection, settings: settings, log: log)
        let eraser = HistoryEraser(connection: connection, store: store, settings: settings, announcer: announcer, log: log)
        let writer = HistoryWriter(connection: connection, store: store, announcer: announcer, eraser: eraser, rules: rules, log: log)
        let rule: ListenRule = options.minimumListenSeconds.map { .minimum(seconds: $0) } ?? .lastFM
        let players = PlayerTracker(
            connection: connection, writer: writer, resolver: resolver, arrivals: arrivals, settings: loaded, rule: rule,
            safetyRereadInterval: options.rereadIntervalSeconds.map { .milliseconds(Int64($0 * 1000)) }
                ?? PlayerTracker.defaultSafetyRereadInterval,
            artworkFolder: store.path.flatMap(ArtworkFolder.path(besideDatabase:)), log: log)
        let keeper = SettingsKeeper(connection: connection, store: store, settings: settings, observers: [players, eraser],
                                    appOfPlayer: players.appID(ofPlayer:), log: log)
        let notifications = DesktopNotifications(connection: connection, log: log)
        let askTimeout = options.askTimeoutSeconds.map { Microseconds($0 * 1_000_000) }
        let questions = AccessNotifications(notifications: notifications, settings: settings, keeper: keeper, resolver: resolver,
                                            log: log, patience: askTimeout ?? AccessQuestions.patience)
        newApps = NewAppQuestions(notifications: notifications, keeper: keeper, resolver: resolver, log: log,
                                  patience: askTimeout ?? NewAppQuestions.patience)
        let gate = ReaderGate(connection: connection, settings: settings, keeper: keeper, arrivals: arrivals,
                              questions: questions, resolver: resolver, log: log)
        let queries = HistoryQueries(store: store, settings: settings, log: log)
        let picker = options.pickerPath.map { PickerSetup(path: $0, environment: environment) }
            ?? PickerSetup.besideExecutable(environment: environment)
        let suggestions = JournalSuggestions(
            connection: connection, store: store, queries: queries, privacy: settings, notifications: notifications, resolver: resolver,
            launcher: JournalLauncher(connection: connection, environment: environment, log: log),
            copier: CopyPicker(connection: connection, setup: picker, log: log), settings: suggestionSettings, log: log)
        let picks = PickRequests(connection: connection, gate: gate, arrivals: arrivals, queries: queries, resolver: resolver,
                                 settings: settings, suggestions: suggestions, setup: picker, log: log)
        names = NameWatch(connection: connection, arrivals: arrivals, observers: [players, gate, announcer, picks])
        object = BrokerObject.Parts(
            settings: settings, keeper: keeper, gate: gate, questions: questions, announcer: announcer, queries: queries,
            status: StatusQueries(players: players, gate: gate, store: store, settings: settings, resolver: resolver),
            donations: Donations(connection: connection, gate: gate, writer: writer, resolver: resolver, settings: settings, rule: rule),
            eraser: eraser, picks: picks, editor: HistoryEditor(store: store, writer: writer, announcer: announcer, loop: connection.loop), suggestions: suggestions)
        self.connection = connection
        self.players = players
        self.writer = writer
        self.eraser = eraser
        self.gate = gate
        self.notifications = notifications
        self.questions = questions
        self.picks = picks
        self.keeper = keeper
        self.suggestions = suggestions
    }

    /// Watches connections come and go; `done` runs once the watch is in force. Callers are told
    /// apart by when the broker first knew their connection, so this comes before any call is
    /// served (the calls that came meanwhile are held) and before the players are listed. Call on
    /// the connection's thread.
    func watchConnections(done: @escaping @Sendable (BusError?) -> Void) {
        names.start(done: done)
    }

    /// Serves the broker's object: the calls held until now are answered. A pause kept from the
    /// previous run ends at its time, or at once if that time passed while the broker was down.
    func serve() {
        connection.export(BrokerObject.make(serving: object))
        keeper.armPauseEnd()
        suggestions.start()
    }

    /// Takes the listens a previous run left open, then follows the players on the bus; `done`
    /// runs once they are listed. Call on the connection's thread.
    func followPlayers(leftovers: [OpenListen], done: @escaping @Sendable (BusError?) -> Void) {
        players.adoptLeftovers(leftovers)
        players.start(askingWith: newApps, completion: done)
    }

    /// Deletes what is older than the retention keeps, and plans the next run. Call on the
    /// connection's thread.
    func enforceRetention() {
        eraser.enforceRetention()
    }

    /// Ends every listen in progress: their store work queues before the store closes. Call on the
    /// connection's thread.
    func stopFollowing() {
        players.stop()
    }

    /// After the store's last completions: closes pickers and questions, and says what could not
    /// be written, if anything. Call on the connection's thread.
    func stop() {
        keeper.stop()
        suggestions.stop()
        writer.stop()
        eraser.stop()
        picks.stop()
        questions.stop()
        newApps.stop()
        notifications.stop()
        gate.stop()
        names.stop()
    }
}
