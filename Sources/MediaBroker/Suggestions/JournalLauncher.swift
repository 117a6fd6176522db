internal import Glibc
import SwiftDBus
import BrokerCore

/// Starts the person's journal app at a suggestion (issue 35), as GIO launches a URL handler:
/// `org.freedesktop.Application.Open` for a `DBusActivatable` app, else its `Exec` line's program
/// with the URL as one argument — never through a shell. The activation token the notification
/// server gave with the person's click goes with it (`activation-token` and `desktop-startup-id`,
/// or `XDG_ACTIVATION_TOKEN` and `DESKTOP_STARTUP_ID`), so the app may take focus on Wayland and
/// X11. A started program runs in a session of its own and is reaped by a thread of its own (a
/// journal may stay open for hours; launches come at the person's clicks, a few a day).
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread; a reaper thread only waits for its pid.
final class JournalLauncher: @unchecked Sendable {
    private let connection: BusConnection
    private let environment: [String: String]
    private let log: Log

    init(connection: BusConnection, environment: [String: String], log: Log) {
        self.connection = connection
        self.environment = environment
        self.log = log
    }

    /// Starts `app` with `url`; `done` is told whether it was started (not whether it shows).
    func launch(_ app: JournalApp, url: String, activationToken: String?, done: @escaping @Sendable (JournalLaunchProblem?) -> Void) {
        let start: JournalApp.Start
        do throws(JournalLaunchProblem) {
            start = try app.start(with: url)
        } catch {
            return done(error)
        }
        switch start {
        case .activation(let name, let path):
            var platform: [String: DBusValue] = [:]
            if let activationToken {
                platform["activation-token"] = .string(activationToken)
                platform["desktop-startup-id"] = .string(activationToken)
            }
            let open = MethodCall(destination: name, path: path, interface: "org.freedesktop.Application", member: "Open",
                                  arguments: [.strings([url]), .vardict(platform)])
            connection.call(open, timeout: .seconds(25)) { result in
                switch result {
                case .success: done(nil)
                case .failure(let error): done(.failed("\(app.id) did not open the suggestion: \(error.message)"))
                }
            }
        case .exec(let arguments):
            do throws(JournalLaunchProblem) {
                let pid = try Self.spawn(arguments, environment: ProgramSpawn.environment(environment, activationToken: activationToken))
                let reaper = WorkerThread()
                let reaping = reaper.submit {
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                }
                reaper.shutdown()
                if !reaping { log.warning("\(arguments[0]) runs, but no thread could wait for it: it stays a zombie when it exits") }
                done(nil)
            } catch {
                done(error)
            }
        }
    }

    /// Starts `arguments[0]` (searched on `PATH` when it has no slash) with the rest, in a session
    /// of its own.
    private static func spawn(_ arguments: [String], environment: [String: String]) throws(JournalLaunchProblem) -> pid_t {
        switch ProgramSpawn.start(arguments, environment: environment, searchingPath: true, inNewSession: true) {
        case .success(let pid): return pid
        case .failure(let error): throw .failed("cannot start \(arguments[0].prefix(255)): \(error.description)")
        }
    }
}
