import Dispatch
import MediaBrokerVersion
import SwiftDBus
#if canImport(Glibc)
import Glibc
#endif
import BrokerCore
import Localization

/// The daemon from start to exit: parse, connect, own the name (or leave: another broker runs),
/// open the history, export the object, follow players, and on SIGTERM/SIGINT finish what is
/// open and stop in order.
public enum BrokerDaemon {
    static let exitUsage: Int32 = 64

    /// Runs the daemon; returns its exit status.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        let options: BrokerOptions
        do {
            switch try BrokerOptions.parse(Array(arguments.dropFirst())) {
            case .showHelp:
                print(BrokerOptions.help)
                return 0
            case .showVersion:
                print(BrokerOptions.versionLine)
                return 0
            case .printInterface:
                print(BrokerObject.interfaceDocument, terminator: "")
                return 0
            case .run(let parsed):
                options = parsed
            }
        } catch {
            // For the person who typed the command: in their language, on lines of their own, as
            // broker-ctl says it (the log's lines are English and one per event).
            StandardError.write(
                localized("Error: {message}", ["message": error.description]) + "\n" + BrokerOptions.usage + "\n"
                    + localized("See '{command}'.", ["command": "media-broker --help"]) + "\n")
            return exitUsage
        }
        StopSignal.install()
        let log = Log(threshold: options.logLevel, environment: environment)

        guard let path = options.databasePath ?? BrokerOptions.defaultDatabasePath(environment: environment) else {
            log.error("cannot tell where the history goes: neither XDG_DATA_HOME nor HOME is set (use --database PATH)")
            return 1
        }

        let connection: BusConnection
        do {
            connection = try BusConnection.session()
        } catch {
            log.error("cannot connect to the session bus: \(error.message.isEmpty ? error.name.rawValue : error.message)")
            return 1
        }
        connection.onDisconnect { StopSignal.busLost() }

        // The name first: a second broker learns it lost before it touches the history (opening it
        // could run a full check, or move a file the running broker uses aside as damaged), and
        // start-up is one round trip shorter. Calls that come with the name, as a bus-activated
        // one does, wait for the object (SwiftDBus holds them, read within their methods' limits)
        // instead of failing.
        connection.holdCalls(for: BrokerContract.objectPath, interfaces: [BrokerObject.declaration])
        switch waitFor({ done in connection.callBus("RequestName", [.string(BrokerContract.busName.rawValue), .uint32(4)]) { done($0) } }) {
        case .failure(let error):
            log.error(error.name == .disconnected
                ? busLostWhileStarting
                : "cannot request \(BrokerContract.busName): \(error)")
            connection.close()
            return 1
        case .success(let reply):
            // 1: now the primary owner; 4: already was. 3 (exists) is the only other answer to
            // DO_NOT_QUEUE.
            let code = (try? reply.first?.integer(as: UInt32.self)) ?? 0
            guard code == 1 || code == 4 else {
                log.error(anotherBrokerMessage)
                connection.close()
                return 1
            }
        }

        let vouched = CleanStopRecord.take(database: path)
        let checkIntegrity = !vouched && access(path, F_OK) == 0
        if checkIntegrity {
            log.info("checking \(path) in full: the last broker did not stop cleanly, or the file changed since")
        }
        guard let store = openStore(at: path, checkIntegrity: checkIntegrity, log: log) else {
            connection.close()
            return 1
        }
        StoreBackpressure.install(on: connection, for: store, log: log)
        // Every read queues at once, and the listens left open by the last run are needed only
        // once the object serves, so start-up waits for the store thread once, not for each read.
        let leftovers = ResultBox<Result<[OpenListen], StoreError>>()
        store.openListens { leftovers.set($0) }
        let storedRules = ResultBox<Result<[CorrectionRule], StoreError>>()
        store.correctionRules { storedRules.set($0) }
        let storedSuggestions = ResultBox<Result<String?, StoreError>>()
        store.setting(SuggestionSettings.storeKey) { storedSuggestions.set($0) }
        let settings = loadSettings(from: store, log: log)
        let rules = rules(from: storedRules.wait(), log: log)
        let suggestions = suggestionSettings(from: storedSuggestions.wait(), log: log)

        let broker = Broker(connection: connection, store: store, settings: settings, rules: rules, suggestionSettings: suggestions,
                            options: options, environment: environment, log: log)
        if case .some(let error) = waitFor({ done in
            if !connection.loop.execute({ broker.watchConnections(done: done) }) { done(BusError(.disconnected, "the connection is closed")) }
        }) {
            log.error(error.name == .disconnected ? busLostWhileStarting : "cannot watch the bus's connections: \(error)")
            return shutDown(connection, store, exitCode: 1)
        }
        broker.serve()

        let open = (try? leftovers.wait().get()) ?? []
        if case .some(let error) = waitFor({ done in
            if !connection.loop.execute({ broker.followPlayers(leftovers: open, done: done) }) {
                done(BusError(.disconnected, "the connection is closed"))
            }
        }) {
            if error.name == .disconnected {
                log.error(busLostWhileStarting)
            } else {
                log.error("cannot follow media players: \(error)")
            }
            return shutDown(connection, store, exitCode: 1)
        }
        connection.loop.execute { broker.enforceRetention() }
        log.info("\(BrokerOptions.versionLine) owns \(BrokerContract.busName); history in \(path)")

        let reason = StopSignal.wait()
        switch reason {
        case .busLost:
            log.error("the session bus went away; exiting so the service manager can restart us")
        case .signal(let number):
            log.info("stopping (signal \(number))")
        }
        // Finish the listens in progress first: their store jobs queue before the store closes.
        waitFor { done in
            if !connection.loop.execute({ broker.stopFollowing(); done(()) }) { done(()) }
        }
        return shutDown(connection, store, broker: broker, exitCode: reason == .busLost ? 1 : 0)
    }

    private static let busLostWhileStarting = "the session bus went away while starting; exiting so the service manager can restart us"
    private static let anotherBrokerMessage = "another media-broker already owns \(BrokerContract.busName) on this bus"

    private static func openStore(at path: String, checkIntegrity: Bool, log: Log) -> HistoryStore? {
        do {
            return try HistoryStore(path: path, checkIntegrity: checkIntegrity)
        } catch .corrupt(_, let reason) {
            do {
                let aside = try HistoryStore.moveAside(path: path)
                log.error("the history database \(path) is damaged (\(reason)); moved it aside to \(aside) and starting a fresh one")
                return try HistoryStore(path: path)
            } catch {
                log.error("the history database \(path) is damaged and could not be replaced: \(error)")
                return nil
            }
        } catch {
            log.error("cannot open the history database \(path): \(error)")
            return nil
        }
    }

    /// The person's settings; when they cannot be read, recording stays off (fail closed: an
    /// unreadable opt-out must not turn into recording an opted-out app).
    private static func loadSettings(from store: HistoryStore, log: Log) -> PrivacySettings {
        switch waitFor({ done in store.setting(PrivacySettings.storeKey) { done($0) } }) {
        case .success(nil):
            return PrivacySettings()
        case .success(let text?):
            do {
                return try PrivacySettings(decoding: text)
            } catch {
                log.error("the stored settings are damaged (\(error)); media recording stays off until they are set again")
                return PrivacySettings(mediaEnabled: false)
            }
        case .failure(let error):
            log.error("cannot read the settings (\(error)); media recording stays off")
            return PrivacySettings(mediaEnabled: false)
        }
    }

    /// The person's correction rules; when they cannot be read, listens are recorded as told
    /// (nothing is lost: each can still be corrected).
    private static func rules(from stored: Result<[CorrectionRule], StoreError>, log: Log) -> CorrectionRules {
        switch stored {
        case .success(let rules):
            return CorrectionRules(rules)
        case .failure(let error):
            log.error("cannot read the correction rules (\(error)); listens are recorded as players tell them")
            return CorrectionRules()
        }
    }

    /// The journaling suggestions' settings; when they cannot be read, suggestions stay off until
    /// set again (nothing is sent that the person may have turned off).
    private static func suggestionSettings(from stored: Result<String?, StoreError>, log: Log) -> SuggestionSettings {
        switch stored {
        case .success(nil):
            return SuggestionSettings()
        case .success(let text?):
            do {
                return try SuggestionSettings(decoding: text)
            } catch {
                log.error("the stored suggestion settings are damaged (\(error)); suggestions stay off until set again")
                return SuggestionSettings()
            }
        case .failure(let error):
            log.error("cannot read the suggestion settings (\(error)); suggestions stay off")
            return SuggestionSettings()
        }
    }

    private static func shutDown(_ connection: BusConnection, _ store: HistoryStore, broker: Broker? = nil,
                                 exitCode: Int32) -> Int32 {
        // The store runs its queued jobs before closing; their completions may still emit
        // signals, so the connection closes (and flushes) after it.
        store.close()
        if let path = store.path { CleanStopRecord.write(database: path) }
        if let broker {
            // After the store's last completions: says what could not be written, if anything.
            waitFor { done in
                if !connection.loop.execute({ broker.stop(); done(()) }) { done(()) }
            }
        }
        connection.close()
        return exitCode
    }

    /// Blocks the calling (main) thread until `start`'s callback runs on another thread.
    private static func waitFor<T: Sendable>(_ start: (@escaping @Sendable (T) -> Void) -> Void) -> T {
        let box = ResultBox<T>()
        start { value in box.set(value) }
        return box.wait()
    }
}

/// One value handed from one thread to another that waits for it.
// @unchecked Sendable: `value` is written once before `semaphore.signal()` and read only after
// `semaphore.wait()`, which orders the two.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private var value: T?
    private let semaphore = DispatchSemaphore(value: 0)

    func set(_ newValue: T) {
        value = newValue
        semaphore.signal()
    }

    func wait() -> T {
        semaphore.wait()
        guard let value else { preconditionFailure("ResultBox woken without a value") }
        return value
    }
}
