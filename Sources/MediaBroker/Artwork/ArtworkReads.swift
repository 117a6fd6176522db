import Locking
import Clocks
internal import Glibc
import BrokerCore

/// The art reads players ask for, done off the bus thread (a file can be slow to open) in batches.
/// A request that finds the reader idle wakes it; the reader first lets ``window`` pass, gathering
/// what else is asked meanwhile — so a flood of track changes, each telling new art, wakes it once
/// per window rather than once per change. A newer request of a player replaces its older one (its
/// earlier tracks are over); the URLs are parsed there, off the bus thread; the art found is
/// answered all at once. Art files live as long as their track at least (a browser deletes one when
/// the next track's is written), far longer than the window.
final class ArtworkReads: Sendable {
    struct Request: Sendable {
        let player: PlayerRef
        let url: String
        /// The player's process, whose view of the files a `file://` URL is read in (nil: unknown,
        /// so no file is read).
        let process: ConnectedProcess?
    }

    struct Found: Sendable {
        let player: PlayerRef
        let url: String
        let artwork: SecuredArtwork
    }

    static let defaultWindow: Duration = .milliseconds(25)
    /// Players whose requests wait at most; beyond, a new player's request is dropped.
    static let maximumWaiting = 256

    private let reader = WorkerThread()
    private let waiting = Locked<(requests: [PlayerRef: Request], reading: Bool)>(([:], false))
    private let window: Duration
    private let procRoot: String
    private let answer: @Sendable ([Found]) -> Void

    /// `answer` runs on the reader's thread with the art found in one batch.
    init(window: Duration = ArtworkReads.defaultWindow, procRoot: String = "/proc", answer: @escaping @Sendable ([Found]) -> Void) {
        self.window = window
        self.procRoot = procRoot
        self.answer = answer
    }

    func ask(_ request: Request) {
        let wakeReader = waiting.withLock { state -> Bool in
            if state.requests.count < Self.maximumWaiting || state.requests[request.player] != nil {
                state.requests[request.player] = request
            }
            guard !state.reading else { return false }
            state.reading = true
            return true
        }
        guard wakeReader else { return }
        if !reader.submit({ [self] in readWhileAsked() }) { waiting.withLock { $0 = ([:], false) } }
    }

    /// Stops reading once the batch in hand is done.
    func shutdown() { reader.shutdown() }

    private func readWhileAsked() {
        while true {
            pause(window)
            let batch = waiting.withLock { state -> [PlayerRef: Request] in
                defer { state.requests.removeAll(keepingCapacity: true) }
                return state.requests
            }
            let found = batch.compactMap { player, request in
                ArtworkSource(url: request.url)
                    .flatMap { ArtworkReader.secure($0, from: request.process, procRoot: procRoot) }
                    .map { Found(player: player, url: request.url, artwork: $0) }
            }
            if !found.isEmpty { answer(found) }
            let asked = waiting.withLock { state -> Bool in
                if state.requests.isEmpty { state.reading = false }
                return state.reading
            }
            guard asked else { return }
        }
    }

    private func pause(_ duration: Duration) {
        guard duration > .zero else { return }
        var request = timespec().adding(duration), remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
