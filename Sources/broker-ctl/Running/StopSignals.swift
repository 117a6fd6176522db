import Dispatch
internal import Glibc

/// SIGINT and SIGTERM as an `AsyncStream`, without Foundation.
///
/// A signal handler may only do async-signal-safe work, so the signals are taken off the default
/// disposition (`SIG_IGN`, so they no longer end the process) and delivered by libdispatch's
/// signal sources, which run an ordinary closure on a queue. Dropping the stream cancels the
/// sources and restores `SIG_DFL`, so a second Ctrl-C after that ends the process as usual.
enum StopSignals {
    static func watch(_ signals: [Int32]) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(8))
        let queue = DispatchQueue(label: "broker-ctl.signals")
        let sources = SignalSources(signals.map { number in
            // Ignored first: libdispatch only observes the signal, it does not stop the default action.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return (number, source)
        })
        continuation.onTermination = { _ in sources.cancel() }
        return stream
    }
}

/// The installed sources, kept until the stream ends. `@unchecked Sendable`: the array is written
/// once in `init`, and `cancel` only calls thread-safe libdispatch and `signal(2)`.
private final class SignalSources: @unchecked Sendable {
    private let sources: [(number: Int32, source: any DispatchSourceSignal)]

    init(_ sources: [(number: Int32, source: any DispatchSourceSignal)]) {
        self.sources = sources
    }

    func cancel() {
        for (number, source) in sources {
            source.cancel()
            signal(number, SIG_DFL)
        }
    }
}
