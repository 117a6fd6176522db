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

        var variables = environment
        variables[ChannelSocket.environmentKey] = String(childDescriptor)
        switch ProgramSpawn.start([path], environment: variables, handing: (pickerEnd, childDescriptor)) {
        case .success(let pid): return PickerProcess(pid: pid, channel: brokerEnd)
        case .failure(let error): throw .failed("cannot start the picker \(path): \(error.description)")
        }
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
