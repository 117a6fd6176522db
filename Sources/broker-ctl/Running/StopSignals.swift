import Dispatch
internal import Glibc
import Synchronization

/// SIGINT and SIGTERM as an `AsyncStream`, without Foundation.
///
/// A signal handler may only do async-signal-safe work, so it writes the signal's number to a pipe
/// (the self-pipe trick, as media-broker's `StopSignal` does); a libdispatch read source on the
/// other end yields it to every stream watching that signal. The handler is installed with
/// `sigaction` before `watch` returns, so no signal is lost, however soon it comes (libdispatch's
/// own signal sources install theirs asynchronously, and a signal in between would be dropped).
/// When the last stream watching a signal ends, its default action is restored, so a second
/// Ctrl-C after that ends the process as usual.
enum StopSignals {
    static func watch(_ signals: [Int32]) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(8))
        guard let hub = SignalHub.shared else {
            continuation.finish()  // No pipe: no way to watch, so only the default action remains.
            return stream
        }
        let id = hub.add(continuation, for: Set(signals))
        continuation.onTermination = { _ in hub.remove(id) }
        return stream
    }
}

/// Written once, before any handler is installed, then only read by the handler.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The process-wide pipe, its read source, and who watches which signal.
private final class SignalHub: Sendable {
    static let shared: SignalHub? = {
        let hub = SignalHub()
        hub?.startReading()
        return hub
    }()

    private struct Watchers {
        var nextID = 0
        var byID: [Int: (signals: Set<Int32>, continuation: AsyncStream<Int32>.Continuation)] = [:]
    }

    private let watchers = Mutex(Watchers())
    private let readEnd: Int32
    /// Kept for the life of the process, like the pipe. Set once, in `startReading`.
    nonisolated(unsafe) private var source: (any DispatchSourceRead)?

    private init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)  // A full pipe drops a signal rather than hang the handler.
        }
        signalPipeWriteEnd = ends[1]
        readEnd = ends[0]
    }

    private func startReading() {
        let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: DispatchQueue(label: "broker-ctl.signals"))
        source.setEventHandler { self.deliverPendingSignals() }
        source.resume()
        self.source = source
    }

    private func deliverPendingSignals() {
        var numbers = [UInt8](repeating: 0, count: 64)
        let count = read(readEnd, &numbers, numbers.count)
        guard count > 0 else { return }
        watchers.withLock { state in
            for number in numbers.prefix(count).map({ Int32($0) }) {
                for watcher in state.byID.values where watcher.signals.contains(number) {
                    watcher.continuation.yield(number)
                }
            }
        }
    }

    func add(_ continuation: AsyncStream<Int32>.Continuation, for signals: Set<Int32>) -> Int {
        watchers.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.byID[id] = (signals, continuation)
            for number in signals { install(number) }
            return id
        }
    }

    func remove(_ id: Int) {
        watchers.withLock { state in
            guard let removed = state.byID.removeValue(forKey: id) else { return }
            let stillWatched = state.byID.values.reduce(into: Set<Int32>()) { $0.formUnion($1.signals) }
            for number in removed.signals.subtracting(stillWatched) { signal(number, SIG_DFL) }
        }
    }

    private func install(_ number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            var byte = UInt8(truncatingIfNeeded: number)
            let savedErrno = errno  // write(2) may change it under the interrupted code's feet.
            _ = write(signalPipeWriteEnd, &byte, 1)
            errno = savedErrno
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }
}
