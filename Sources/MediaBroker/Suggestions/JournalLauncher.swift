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
            var variables = environment
            if let activationToken {
                variables["XDG_ACTIVATION_TOKEN"] = activationToken
                variables["DESKTOP_STARTUP_ID"] = activationToken
            }
            do throws(JournalLaunchProblem) {
                let pid = try Self.spawn(arguments, environment: variables)
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

    /// glibc's `POSIX_SPAWN_SETSID`, which the Glibc module leaves out (it is behind `_GNU_SOURCE`):
    /// the journal runs in a session of its own, apart from the broker's.
    private static let newSession: Int32 = 0x80

    /// Starts `arguments[0]` (searched on `PATH` when it has no slash) with the rest, in a new
    /// session, standard input from `/dev/null`, every signal at its default.
    private static func spawn(_ arguments: [String], environment: [String: String]) throws(JournalLaunchProblem) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), none = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | Self.newSession))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        // posix_spawnp searches the broker's own PATH, as GIO does.
        let failure = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard failure == 0 else {
            throw .failed("cannot start \(arguments[0].prefix(255)): \(String(cString: strerror(failure)))")
        }
        return pid
    }
}
