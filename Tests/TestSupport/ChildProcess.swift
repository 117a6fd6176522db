// Launching helper programs (dbus-daemon, mpv, the broker, dbus-send) and watching them.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program started by a test. Its standard output and error are read continuously on background
/// threads (a chatty child never blocks on a full pipe) and can be read as snapshots at any time.
/// Standard input is `/dev/null`. When the last reference goes away a child that still runs is
/// killed with SIGKILL and reaped, so a failing test leaves no process behind.
///
/// All mutable state is behind ``Locked`` (pthread mutexes, which ThreadSanitizer sees, unlike
/// `Synchronization.Mutex` on Linux), so the class is `Sendable` without `@unchecked`.
public final class ChildProcess: Sendable, CustomStringConvertible {
    /// One of the child's output streams.
    public enum Stream: Sendable, CustomStringConvertible {
        case standardOutput, standardError

        public var description: String { self == .standardOutput ? "stdout" : "stderr" }
    }

    /// How a child ended.
    public enum ExitStatus: Equatable, Sendable, CustomStringConvertible {
        /// It called `exit` with this code. (-1 when someone else reaped it, which should not happen.)
        case exited(Int32)
        /// A signal with this number ended it.
        case signalled(Int32)

        public var isSuccess: Bool { self == .exited(0) }

        public var description: String {
            switch self {
            case .exited(let code): "exited with code \(code)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// The child's process id.
    public let pid: Int32
    /// The resolved path of the program that runs.
    public let executable: String
    public let arguments: [String]

    private let output = CapturedOutput()
    private let errors = CapturedOutput()
    /// Set once the child has been reaped; guarded so that exactly one `waitpid` reaps it.
    private let exit = Locked<ExitStatus?>(nil)

    private init(pid: Int32, executable: String, arguments: [String]) {
        self.pid = pid
        self.executable = executable
        self.arguments = arguments
    }

    public var description: String { "\(executable.split(separator: "/").last ?? "") (pid \(pid))" }

    // MARK: Launching

    /// The environment every child starts from: only the variables below, taken from this process
    /// when set. Notably there is no `DBUS_SESSION_BUS_ADDRESS`, so a child reaches a bus only when
    /// a test hands it one (`PrivateBus.environment`) and never the person's real session bus.
    public static let baseEnvironmentNames = [
        "PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR",
        "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
        "XDG_DATA_DIRS", "XDG_CONFIG_DIRS", "LLVM_PROFILE_FILE",
    ]

    /// `baseEnvironmentNames` with this process's values (PATH defaults to the usual directories).
    public static var baseEnvironment: [String: String] {
        let current = ProcessInfo.processInfo.environment
        var base = current.filter { baseEnvironmentNames.contains($0.key) }
        if base["PATH"] == nil { base["PATH"] = "/usr/local/bin:/usr/bin:/bin" }
        return base
    }

    /// Starts `executable` (a path, or a name looked up on the PATH of the child's environment)
    /// with `arguments`, in `workingDirectory` if given. `environment` is merged over
    /// `baseEnvironment`. The corresponding libc call is `posix_spawn`; signals start with their
    /// default actions and an empty mask whatever this process has set.
    public static func launch(
        _ executable: String,
        arguments: [String],
        environment: [String: String] = [:],
        workingDirectory: String? = nil
    ) throws -> ChildProcess {
        let environment = baseEnvironment.merging(environment) { $1 }
        let path = try resolve(executable, searchPath: environment["PATH"] ?? "")
        try requireListed(path)

        // O_CLOEXEC: a child launched by another thread at the same moment must not inherit the
        // write ends, or our readers would never see end-of-file.
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard GNU.pipe2(&outPipe, O_CLOEXEC) == 0 else { throw posixError("pipe2") }
        guard GNU.pipe2(&errPipe, O_CLOEXEC) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw posixError("pipe2")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        if let workingDirectory {
            let rc = GNU.posix_spawn_file_actions_addchdir_np(&actions, workingDirectory)
            guard rc == 0 else {
                [outPipe[0], outPipe[1], errPipe[0], errPipe[1]].forEach { close($0) }
                throw TestSupportError("cannot use \(workingDirectory) as working directory: \(String(cString: strerror(rc)))")
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard rc == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw TestSupportError("cannot start \(path): \(String(cString: strerror(rc)))")
        }
        let child = ChildProcess(pid: pid, executable: path, arguments: arguments)
        child.output.startReading(from: outPipe[0], name: "\(child) stdout")
        child.errors.startReading(from: errPipe[0], name: "\(child) stderr")
        return child
    }

    /// Runs a short command to its end and returns how it ended with everything it printed.
    /// Throws if it does not finish within `timeout` (it is then killed).
    public static func run(
        _ executable: String,
        arguments: [String],
        environment: [String: String] = [:],
        workingDirectory: String? = nil,
        timeout: Duration = .seconds(30)
    ) throws -> (status: ExitStatus, standardOutput: String, standardError: String) {
        let child = try launch(
            executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory)
        let status = try child.waitForExit(timeout: timeout)
        return (status, child.standardOutput, child.standardError)
    }

    // MARK: Watching

    /// Everything the child has written to standard output so far (invalid UTF-8 is repaired).
    public var standardOutput: String { output.text }
    /// Everything the child has written to standard error so far.
    public var standardError: String { errors.text }

    private func captured(_ stream: Stream) -> CapturedOutput {
        stream == .standardOutput ? output : errors
    }

    /// Waits until `stream` contains `text`. Fails early, with everything the child printed, if
    /// the stream closes without it; and with the same when `timeout` passes.
    public func waitForOutput(containing text: String, in stream: Stream, timeout: Duration) throws {
        do {
            try waitUntil("\(self) prints \"\(text)\" on \(stream)", timeout: timeout) {
                let (printed, closed) = captured(stream).snapshot()
                if printed.contains(text) { return true }
                if closed {
                    throw TestSupportError("\(self) closed its \(stream) without printing \"\(text)\"\n\(transcript)")
                }
                return false
            }
        } catch let timeout as WaitTimeout {
            throw TestSupportError("\(timeout)\n\(transcript)")
        }
    }

    /// Both streams as printed so far, for error messages.
    public var transcript: String {
        "--- \(self) stdout ---\n\(standardOutput)\n--- stderr ---\n\(standardError)\n--- end ---"
    }

    /// Whether the child still runs (reaps it if it has ended).
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Sends `sig` (e.g. `SIGTERM`) to the child; does nothing once it has been reaped, so a
    /// recycled pid is never hit.
    public func signal(_ sig: Int32) {
        exit.withLock { status in
            if status == nil { _ = kill(pid, sig) }
        }
    }

    /// Waits until the child ends and returns how. Once it has, also waits (briefly) until its
    /// output streams close, so that `standardOutput` and `standardError` are complete unless a
    /// descendant of the child still holds them open.
    public func waitForExit(timeout: Duration) throws -> ExitStatus {
        var status: ExitStatus?
        do {
            try waitUntil("\(self) exits", timeout: timeout) {
                status = reap(blocking: false)
                return status != nil
            }
        } catch let timeout as WaitTimeout {
            throw TestSupportError("\(timeout)\n\(transcript)")
        }
        try? waitUntil("\(self)'s output closes", timeout: .seconds(2)) {
            output.snapshot().closed && errors.snapshot().closed
        }
        return status!
    }

    /// The `async` form of `waitForExit`: waits between checks without holding a thread, so a child
    /// that runs for many seconds (a compiler) leaves the test pool's few threads to other tests.
    public func exited(timeout: Duration) async throws -> ExitStatus {
        var status: ExitStatus?
        do {
            try await waitUntil("\(self) exits", timeout: timeout) { () async -> Bool in
                status = reap(blocking: false)
                return status != nil
            }
        } catch let timeout as WaitTimeout {
            throw TestSupportError("\(timeout)\n\(transcript)")
        }
        try? await waitUntil("\(self)'s output closes", timeout: .seconds(2)) { () async -> Bool in
            output.snapshot().closed && errors.snapshot().closed
        }
        return status!
    }

    /// Reaps the child if it has ended (`waitpid`; blocking only when asked) and returns its status.
    private func reap(blocking: Bool) -> ExitStatus? {
        exit.withLock { status in
            if status != nil { return status }
            var raw: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
            } while result == -1 && errno == EINTR
            if result == pid {
                // The WIFEXITED / WEXITSTATUS / WTERMSIG macros do not import into Swift.
                let signal = raw & 0x7f
                status = signal == 0 ? .exited((raw >> 8) & 0xff) : .signalled(signal)
            } else if result == -1 {
                status = .exited(-1)
            }
            return status
        }
    }

    deinit {
        if reap(blocking: false) == nil {
            signal(SIGKILL)
            _ = reap(blocking: true)
        }
    }

    // MARK: Helpers

    private static func resolve(_ executable: String, searchPath: String) throws -> String {
        if executable.contains("/") {
            guard access(executable, X_OK) == 0 else {
                throw TestSupportError("\(executable) is not an executable file")
            }
            return executable
        }
        for directory in searchPath.split(separator: ":") {
            let candidate = "\(directory)/\(executable)"
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        throw TestSupportError(
            "\(executable) not found on PATH (\(searchPath)); scripts/test installs the packages tests need (scripts/lib/deps.sh)")
    }

    /// The system programs scripts/lib/needs.tsv lists, read once.
    private static let listedPrograms: Set<String>? = try? NeededPrograms.inSourceTree().programs

    /// A system program no list names would pass here and fail on a fresh machine: refuse it.
    private static func requireListed(_ path: String) throws {
        guard NeededPrograms.isSystemProgram(path) else { return }
        guard let listed = listedPrograms else { throw TestSupportError("cannot read \(NeededPrograms.relativePath)") }
        let name = (path as NSString).lastPathComponent
        guard listed.contains(name) else {
            throw TestSupportError("\(path) is not listed in \(NeededPrograms.relativePath): add it with the package that provides it "
                + "(dpkg -S \(path)), and that package to scripts/lib/deps.sh")
        }
    }

    private static func posixError(_ call: String) -> TestSupportError {
        TestSupportError("\(call) failed: \(String(cString: strerror(errno)))")
    }
}

/// glibc functions that Swift's Glibc module does not import, because it is built without
/// `_GNU_SOURCE`; looked up by name once. Both have been in glibc since long before Debian 12 (2.36).
private enum GNU {
    private static func lookUp<Function>(_ name: String, as type: Function.Type) -> Function {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else {
            fatalError("glibc has no \(name); TestSupport needs glibc 2.29 or later")
        }
        return unsafeBitCast(symbol, to: type)
    }

    /// `int pipe2(int fds[2], int flags)`
    static let pipe2 = lookUp(
        "pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)

    /// `int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *, const char *)`
    static let posix_spawn_file_actions_addchdir_np = lookUp(
        "posix_spawn_file_actions_addchdir_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
}

/// One output stream of a child, read to its end by a background thread.
private final class CapturedOutput: Sendable {
    private let state = Locked<(bytes: [UInt8], closed: Bool)>(([], false))

    var text: String { snapshot().text }

    func snapshot() -> (text: String, closed: Bool) {
        state.withLock { (String(decoding: $0.bytes, as: UTF8.self), $0.closed) }
    }

    /// Reads `fd` until end-of-file on a thread of its own, then closes it.
    func startReading(from fd: Int32, name: String) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    state.withLock { $0.bytes.append(contentsOf: buffer[..<count]) }
                } else if count == -1 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(fd)
            state.withLock { $0.closed = true }
        }
        thread.name = name
        thread.start()
    }
}
