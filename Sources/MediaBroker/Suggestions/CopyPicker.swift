import PickerChannel
import SwiftDBus
import BrokerCore

/// *Write about it* with no journal app chosen (issue 35): the broker's own picker opens at the
/// suggested moment, its listens ticked, and *Copy* puts what the person keeps ticked on the
/// clipboard as text for any journal (the picker's `ClipboardHandOff` keeps it pasteable). No app
/// asks, so nothing is sent anywhere; the broker only starts the picker and waits for it.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread; the waiting thread hands what it learns back with `loop.execute`.
final class CopyPicker: @unchecked Sendable {
    private let connection: BusConnection
    private let setup: PickerSetup
    private let localTime: LocalTime
    private let log: Log
    /// The picker while its window is open: one at a time, ended when the broker stops.
    private var running: PickerProcess?

    init(connection: BusConnection, setup: PickerSetup, localTime: LocalTime = .system, log: Log) {
        self.connection = connection
        self.setup = setup
        self.localTime = localTime
        self.log = log
    }

    /// Opens the picker at `suggested`, with the notification server's `activationToken` so it
    /// may take focus.
    func open(at suggested: SuggestionTokens.Suggested, activationToken: String?) {
        if let missing = setup.missingDisplay ?? setup.missingPicker { return log.warning("cannot open the picker to copy the suggestion: \(missing)") }
        guard let busAddress = setup.busAddress else {
            return log.warning("cannot open the picker to copy the suggestion: DBUS_SESSION_BUS_ADDRESS is not set")
        }
        if running != nil { running?.terminate() }
        let day = suggested.listeningDay(localTime: localTime)
        let request = PickerRequest(appID: nil, appName: nil, appIcon: nil, reason: nil, since: day.since, until: day.until,
                                    multiple: true, parentWindow: "", busAddress: busAddress, openMoment: suggested.momentID,
                                    purpose: .copy)
        let environment = ProgramSpawn.environment(setup.environment, activationToken: activationToken)
        let waiter = WorkerThread(), loop = connection.loop, path = setup.path, log = log
        let submitted = waiter.submit { [unowned self] in
            let process: PickerProcess
            do throws(BusError) {
                process = try PickerProcess.start(path: path, environment: environment)
            } catch {
                return log.warning("cannot open the picker to copy the suggestion: \(error.message)")
            }
            loop.execute { [unowned self] in running = process }
            let answer = process.ask(request)
            // Answered, the picker may go on serving the clipboard: the broker no longer ends it.
            loop.execute { [unowned self] in
                if running === process { running = nil }
                switch answer {
                case .success(.shared(let ids, _)?): log.info("the person copied \(ids.count) listens of the suggested moment")
                case .success: log.info("the person closed the picker without copying")
                case .failure(let error): log.warning("the picker opened to copy: \(error.description)")
                }
            }
            process.waitForExit()
        }
        waiter.shutdown()
        if !submitted { log.warning("cannot open the picker to copy the suggestion: no thread to wait for it") }
    }

    /// Closes a picker still open (the broker is stopping).
    func stop() {
        running?.terminate()
        running = nil
    }
}
