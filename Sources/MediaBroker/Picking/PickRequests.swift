import Clocks
import PickerChannel
import SwiftDBus
import BrokerCore

/// `PickMedia` (issue 21): each call gets a request object at once, a picker window of its own,
/// and — when the person is done — a `Response` sent to the caller alone holding only what they
/// picked. Any identified caller may pick, a sandboxed app with no grant too: what it gets is
/// what the person chose for it.
///
/// The picker runs as its own process (``PickerProcess``), one per request, on a thread of its own
/// that waits for it; the history is read on the reader's thread. A request ends once: answered,
/// closed by its caller (`Close()`, no `Response`, as portals do), or with its caller gone.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread (handlers, completions handed back with `loop.execute`).
final class PickRequests: @unchecked Sendable, NameWatch.Observer {
    private let connection: BusConnection
    private let gate: ReaderGate
    private let arrivals: ConnectionArrivals
    private let queries: HistoryQueries
    private let resolver: AppResolver
    private let settings: CurrentSettings
    private let suggestions: JournalSuggestions
    private let setup: PickerSetup
    private let log: Log
    private let localTime: LocalTime
    /// The open requests, by their caller's unique name: one each, and one per sandboxed app.
    private var open: [String: Request] = [:]
    private var serial = 0

    static let maximumOpen = 8

    /// A request is known by its generation, never by its path alone: an app chooses its
    /// `handle_token`, so a later request may have an earlier one's path while that one's picker is
    /// still starting — and that picker must then be ended, not taken for the new one's.
    private struct Request {
        let generation: Int
        let path: ObjectPath
        let options: PickOptions
        /// The sandboxed app asking (nil for the host): one open picker per app, however many
        /// connections it opens.
        let app: String?
        var process: PickerProcess?
    }

    private func isOpen(_ caller: String, _ generation: Int) -> Bool { open[caller]?.generation == generation }

    init(connection: BusConnection, gate: ReaderGate, arrivals: ConnectionArrivals, queries: HistoryQueries, resolver: AppResolver,
         settings: CurrentSettings, suggestions: JournalSuggestions, setup: PickerSetup, log: Log, localTime: LocalTime = .system) {
        self.connection = connection
        self.suggestions = suggestions
        self.gate = gate
        self.arrivals = arrivals
        self.queries = queries
        self.resolver = resolver
        self.settings = settings
        self.setup = setup
        self.log = log
        self.localTime = localTime
    }

    /// A caller that leaves the bus ends its request without a `Response`.
    func left(_ uniqueName: String) {
        close(uniqueName)
    }

    func pickMedia(_ call: MethodInvocation) {
        guard let caller = call.sender else { return call.fail(.failed("a call with no sender cannot be answered")) }
        let options: PickOptions
        do throws(BusError) {
            guard call.arguments.count == 2, let parent = try? call.arguments[0].string(), let raw = try? call.arguments[1].vardict() else {
                throw .invalidArgs("PickMedia takes (s parent_window, a{sv} options)")
            }
            options = try PickOptions(parentWindow: parent, options: raw, now: WallClock.now)
        } catch {
            return call.fail(error)
        }
        guard open[caller] == nil else { return call.fail(BusError(.limitsExceeded, "this connection has a PickMedia request open already")) }
        let reader = gate.reader(of: caller)
        if let app = reader.appID, open.values.contains(where: { $0.app == app }) {
            return call.fail(BusError(.limitsExceeded, "\(app) has a PickMedia request open already"))
        }
        guard open.count < Self.maximumOpen else { return call.fail(BusError(.limitsExceeded, "\(Self.maximumOpen) pickers are open already")) }
        if let missing = setup.missingDisplay { return call.fail(BusError(.notSupported, missing)) }
        // One stat of the picker's path, so the app learns at once that none is installed; it is
        // started, reading it from disk, on the request's own thread.
        if let missing = setup.missingPicker { return call.fail(.failed(missing)) }
        guard let busAddress = setup.busAddress else {
            return call.fail(.failed("the broker cannot tell the picker its bus: DBUS_SESSION_BUS_ADDRESS is not set"))
        }
        serial += 1
        let generation = serial
        guard let path = PickOptions.requestPath(sender: caller, token: options.token ?? "pick\(serial)") else {
            return call.fail(.failed("no request path for \(caller)"))
        }
        open[caller] = Request(generation: generation, path: path, options: options, app: reader.appID)
        connection.export(RequestObject.make(path: path, caller: caller) { [unowned self] in
            connection.loop.execute { [unowned self] in close(caller) }
        })
        call.reply([.objectPath(path)])
        let opening = opening(options)
        AskerLookup(connection: connection, resolver: resolver).describe(caller, reader: reader, startedBy: arrivals.startedBy(caller)) { [unowned self] asker in
            let request = PickerRequest(appID: asker?.appID, appName: asker?.appName, appIcon: asker?.appIcon, reason: options.reason,
                                        since: opening.since, until: opening.until, multiple: options.multiple,
                                        parentWindow: options.parentWindow, busAddress: busAddress, openMoment: opening.moment)
            start(request, for: caller, generation: generation)
        }
    }

    /// Where the picker opens: at a suggestion's moment (issue 35) — on its listening day unless
    /// the caller chose the span — or, for an id the broker did not give or no longer remembers,
    /// as usual. The moment's listens are read by the picker as any others, so one purged or opted
    /// out since is not there to open.
    private func opening(_ options: PickOptions) -> (since: Microseconds, until: Microseconds, moment: String?) {
        guard let token = options.suggestion, let suggested = suggestions.moment(forSuggestion: token) else {
            return (options.since, options.until, nil)
        }
        guard !options.spanGiven else { return (options.since, options.until, suggested.momentID) }
        let day = suggested.listeningDay(localTime: localTime)
        return (day.since, day.until, suggested.momentID)
    }

    /// Starts the picker and waits for it on a thread of the request's own: starting a program
    /// reads it from disk, and the person takes their time.
    private func start(_ request: PickerRequest, for caller: String, generation: Int) {
        guard isOpen(caller, generation) else { return }  // closed meanwhile
        let waiter = WorkerThread(), loop = connection.loop, setup = setup, log = log
        let submitted = waiter.submit { [unowned self] in
            let process: PickerProcess
            do throws(BusError) {
                process = try PickerProcess.start(path: setup.path, environment: setup.environment)
            } catch {
                log.warning("PickMedia from \(caller): \(error.message)")
                loop.execute { [unowned self] in finish(caller, generation, with: .ended) }
                return
            }
            loop.execute { [unowned self] in started(process, for: caller, generation: generation) }
            let answer = process.exchange(request)
            loop.execute { [unowned self] in answered(caller, generation, answer) }
        }
        waiter.shutdown()
        if !submitted { finish(caller, generation, with: .ended) }
    }

    /// Keeps the running picker, so `Close()` can end it; one closed while it started is ended now.
    private func started(_ process: PickerProcess, for caller: String, generation: Int) {
        guard isOpen(caller, generation) else { return process.terminate() }
        open[caller]?.process = process
    }

    private func answered(_ caller: String, _ generation: Int, _ answer: Result<PickerAnswer?, ChannelError>) {
        guard let request = open[caller], request.generation == generation else { return }  // closed meanwhile
        switch answer {
        case .failure(let error):
            log.warning("the picker for \(caller): \(error.description)")
            finish(caller, generation, with: .ended)
        case .success(nil):
            finish(caller, generation, with: .ended)
        case .success(.cancelled?):
            finish(caller, generation, with: .cancelled)
        case .success(.shared(let ids, let momentID)?):
            read(ids, momentID: momentID, options: request.options) { [unowned self] response in
                finish(caller, generation, with: response)
            }
        }
    }

    /// Reads the picked listens from the history, as the settings allow now.
    private func read(_ ids: [Int64], momentID: String?, options: PickOptions, then: @escaping @Sendable (PickResponse) -> Void) {
        let settings = settings.value, loop = connection.loop
        let excluded = Set(settings.optOuts.keys)
        guard settings.mediaEnabled, !ids.isEmpty else { return then(.shared(assets: [], momentID: nil)) }
        queries.read({ history throws(SQLiteError) in
            try history.assets(ids: Array(ids.prefix(HistoryQueries.maximumIDs)), excludingApps: excluded)
        }) { result in
            let response: PickResponse = switch result {
            case .success(let found): .shared(ids: ids, found: found, momentID: momentID, span: options.since...options.until)
            case .failure: .ended
            }
            loop.execute { then(response) }
        }
    }

    /// Answers request `generation` of `caller` and ends it; a picker still running (one that sent
    /// something unreadable) is ended with it.
    private func finish(_ caller: String, _ generation: Int, with response: PickResponse) {
        guard let request = open[caller], request.generation == generation else { return }
        open[caller] = nil
        request.process?.terminate()
        do {
            try connection.emit(RequestObject.response(response, path: request.path, caller: caller, localTime: localTime))
        } catch {
            log.warning("could not send the Response of \(request.path): \(error)")
        }
        connection.unexport(request.path)
    }

    /// Ends `caller`'s request without a `Response`: it called `Close()`, or left the bus.
    private func close(_ caller: String) {
        guard let request = open.removeValue(forKey: caller) else { return }
        request.process?.terminate()
        connection.unexport(request.path)
    }

    /// Closes every picker (the broker is stopping).
    func stop() {
        for caller in Array(open.keys) { close(caller) }
    }
}
