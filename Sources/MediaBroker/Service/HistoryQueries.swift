import SwiftDBus
import BrokerCore

/// Answers journaling apps' questions of the history — `RecentMedia`, `Moments`, `MediaByID` — as
/// the person's settings allow (``HistoryQuestion/allowed(by:)``). The queries run on the reader's
/// thread (``HistoryReader``), or the store's when the reader cannot; the bus thread only routes.
// @unchecked Sendable: built on the main thread, then called only on the connection's thread; the
// reader is created there, once, and is itself safe to call from any thread.
final class HistoryQueries: @unchecked Sendable {
    private let store: HistoryStore
    private let log: Log
    private let localTime: LocalTime
    private let settings: CurrentSettings
    /// The history's reader; `nil` for a store in memory.
    private lazy var reader: HistoryReader? = store.path.map(HistoryReader.init(path:))

    /// `MediaByID`'s most ids in one call.
    static let maximumIDs = 1000

    init(store: HistoryStore, settings: CurrentSettings, log: Log, localTime: LocalTime = .system) {
        self.store = store
        self.settings = settings
        self.log = log
        self.localTime = localTime
    }

    func recentMedia(_ call: MethodInvocation) {
        guard let query = filter(call, RecentQuery.init(filter:)) else { return }
        // With Media off journaling apps get nothing; opted-out apps are never returned.
        guard let query = query.allowed(by: settings.value) else { return call.reply([.array(element: .vardict, [])]) }
        read({ history throws(SQLiteError) in try history.recent(query) }) { result in
            switch result {
            case .success(let assets?): call.reply(AssetPage(assets: assets))
            case .success(nil): call.fail(.unknownCursor(query.beforeID ?? 0))
            case .failure(let error): call.fail(.failed("the history could not be read: \(error)"))
            }
        }
    }

    func moments(_ call: MethodInvocation) {
        guard let query = filter(call, MomentsQuery.init(filter:)) else { return }
        guard let query = query.allowed(by: settings.value) else { return call.reply([.array(element: .vardict, [])]) }
        let localTime = localTime
        read({ history throws(SQLiteError) in try history.moments(query, localTime: localTime) }) { result in
            switch result {
            case .success(let moments?): call.reply([.array(element: .vardict, moments.map { $0.fields(localTime: localTime) })])
            case .success(nil): call.fail(.invalidArgs("'before' \(query.before ?? 0) names no moment in the history"))
            case .failure(let error): call.fail(.failed("the history could not be read: \(error)"))
            }
        }
    }

    func mediaByID(_ call: MethodInvocation) {
        guard let items = try? call.arguments[0].array() else { return call.fail(.invalidArgs("the ids must be ax")) }
        guard items.count <= Self.maximumIDs else { return call.fail(.invalidArgs("at most \(Self.maximumIDs) ids in one call")) }
        let settings = settings.value
        let ids = items.compactMap { try? $0.integer(as: Int64.self) }
        guard settings.mediaEnabled, !ids.isEmpty else { return call.reply([.array(element: .vardict, [])]) }
        let excluded = Set(settings.optOuts.keys)
        read({ history throws(SQLiteError) in try history.assets(ids: ids, excludingApps: excluded) }) { result in
            switch result {
            case .success(let assets): call.reply(AssetPage(assets: assets))
            case .failure(let error): call.fail(.failed("the history could not be read: \(error)"))
            }
        }
    }

    /// The call's filter read by `parse`; `nil` once the call has been answered with its error.
    private func filter<Query>(_ call: MethodInvocation, _ parse: ([String: DBusValue]) throws(BusError) -> Query) -> Query? {
        do throws(BusError) {
            guard let filter = try? call.arguments[0].vardict() else { throw .invalidArgs("the filter must be a{sv}") }
            return try parse(filter)
        } catch {
            call.fail(error)
            return nil
        }
    }

    /// Runs `body` on the reader, or on the store when the reader cannot answer.
    func read<Answer: Sendable>(_ body: @escaping @Sendable (HistoryReads) throws(SQLiteError) -> Answer,
                                        answer: @escaping @Sendable (Result<Answer, StoreError>) -> Void) {
        guard let reader else { return store.read(body, completion: answer) }
        reader.read(body) { [store, log] result in
            guard case .failure(let error) = result else { return answer(result) }
            log.debug("a query goes to the store thread: \(error)")
            store.read(body, completion: answer)
        }
    }
}
