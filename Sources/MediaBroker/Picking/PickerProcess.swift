internal import Glibc
import PickerChannel
import SwiftDBus
import Synchronization

/// One running `media-broker-picker`: started for one request with one end of a fresh socket pair
/// as its channel (descriptor 3, named by `MEDIA_BROKER_PICKER_FD`), so no other process can read
/// what the broker tells it or forge what it answers.
///
/// ``exchange(_:)`` blocks (it writes the request and waits for the person): call it on a thread of
/// its own. The process is reaped there too.
// @unchecked Sendable: `pid` is set once in `start`; the channel is used only by the exchanging
// thread; whether the process was reaped is behind a mutex.
final class PickerProcess: @unchecked Sendable {
    let pid: pid_t
    private let channel: ChannelSocket
    /// Set, under the lock, before the exited process is reaped: a signal is sent only while the
    /// pid is still the picker's (running, or a zombie), never to a process that reused it.
    private let reaped = Mutex(false)

    /// The descriptor the picker finds its channel on.
    static let childDescriptor: Int32 = 3

    private init(pid: pid_t, channel: ChannelSocket) {
        self.pid = pid
        self.channel = channel
    }

    /// Starts the picker at `path` with `environment` (the broker's own: the display and the bus
    /// reach it that way).
    static func start(path: String, environment: [String: String]) throws(BusError) -> PickerProcess {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw .failed("cannot make the picker's channel: \(String(cString: strerror(errno)))")
        }
        let brokerEnd = ChannelSocket(descriptor: ends[0])
        // Above the standard descriptors, so dup2 onto 3 always clears close-on-exec.
        let pickerEnd = fcntl(ends[1], F_DUPFD_CLOEXEC, 10)
        close(ends[1])
        defer { if pickerEnd >= 0 { close(pickerEnd) } }
        guard pickerEnd >= 0 else { throw .failed("cannot make the picker's channel: \(String(cString: strerror(errno)))") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pickerEnd, childDescriptor)

        // The broker ignores SIGPIPE; the picker starts with every signal at its default.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), none = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var variables = environment
        variables[ChannelSocket.environmentKey] = String(childDescriptor)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let failure = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard failure == 0 else {
            throw .failed("cannot start the picker \(path): \(String(cString: strerror(failure)))")
        }
        return PickerProcess(pid: pid, channel: brokerEnd)
    }

    /// Sends `request`, waits for the person's answer and for the picker to exit. `nil` when the
    /// picker ended without answering (closed, killed, crashed) or answered nonsense.
    func exchange(_ request: PickerRequest) -> Result<PickerAnswer?, ChannelError> {
        defer { waitForExit() }
        return ask(request)
    }

    /// Sends `request` and waits for the person's answer, not for the picker to exit: one opened
    /// to copy goes on serving the clipboard after it answers. Follow with ``waitForExit()``.
    func ask(_ request: PickerRequest) -> Result<PickerAnswer?, ChannelError> {
        defer { channel.close() }
        do throws(ChannelError) {
            try channel.send(request.text)
            guard let text = try channel.receive() else { return .success(nil) }
            return .success(try PickerAnswer(text))
        } catch {
            return .failure(error)
        }
    }

    /// Waits for the picker to exit, and reaps it.
    func waitForExit() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        reaped.withLock { reaped in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            reaped = true
        }
    }

    /// Asks the picker to close its window and go.
    func terminate() {
        reaped.withLock { reaped in
            if !reaped { kill(pid, SIGTERM) }
        }
    }
}
