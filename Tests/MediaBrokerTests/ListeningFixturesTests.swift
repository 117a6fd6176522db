import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore

// Shared fixtures for the Listening and Metadata tests: times, tracks, MPRIS maps, and a driver
// that feeds a PlayerListening a scripted player's events and keeps every effect.

/// One second in microseconds.
let second: Microseconds = 1_000_000
/// An arbitrary start of the script (2023-11-14).
let scriptStart: Microseconds = 1_700_000_000_000_000

/// The moment `seconds` after the script's start.
func at(_ seconds: Double) -> Microseconds { scriptStart + Microseconds((seconds * 1_000_000).rounded()) }

/// A complete, recordable music track.
func track(
    _ title: String = "Song", artists: [String] = ["Artist"], album: String? = "Album",
    length: Microseconds? = 200 * second, trackID: String? = nil
) -> TrackMetadata {
    TrackMetadata(trackID: trackID ?? "/org/mpris/MediaPlayer2/track/\(title.utf8.count)", title: title,
        artists: artists, album: album, length: length)
}

func objectPath(_ text: String) -> DBusValue { .objectPath(try! ObjectPath(text)) }

/// Feeds one player's events and records every effect, with helpers to look at them.
struct ScriptedPlayer {
    var listening: PlayerListening
    private(set) var effects: [ListenEffect] = []
    /// Whether the player's deadline timer runs, as the tracker runs it: before each event, a
    /// `.tick` at every deadline that came due. Off, only the script's own ticks are sent.
    let timers: Bool
    /// The latest moment an event was sent at.
    private var clock = scriptStart

    init(rule: ListenRule = .lastFM, checkpointInterval: Microseconds? = nil, timers: Bool = false) {
        listening = PlayerListening(rule: rule, checkpointInterval: checkpointInterval)
        self.timers = timers
    }

    init(resumed: PlayerListening) {
        listening = resumed
        timers = false
    }

    /// Sends `event` at `seconds` into the script (after the ticks due before it, with `timers`);
    /// returns that event's own effects.
    @discardableResult
    mutating func send(_ event: PlayerEvent, at seconds: Double) -> [ListenEffect] {
        let now = at(seconds)
        if timers { runTimers(until: now) }
        let new = listening.handle(event, at: now)
        effects += new
        clock = max(clock, now)
        return new
    }

    private mutating func runTimers(until now: Microseconds) {
        var ticked: Microseconds?
        while let deadline = listening.nextDeadline(at: clock), deadline <= now, deadline != ticked {
            effects += listening.handle(.tick, at: deadline)
            clock = deadline
            ticked = deadline
        }
    }

    /// The usual start: metadata, then Playing.
    mutating func play(_ metadata: TrackMetadata, at seconds: Double) {
        send(.metadata(metadata), at: seconds)
        send(.playbackStatus(.playing), at: seconds)
    }

    var opened: [Listen] { effects.compactMap { if case .opened(let l) = $0 { l } else { nil } } }
    var checkpoints: [Listen] { effects.compactMap { if case .checkpoint(let l) = $0 { l } else { nil } } }
    var finished: [Listen] { effects.compactMap { if case .finished(let l) = $0 { l } else { nil } } }
    var dropped: [(Listen, DropReason)] { effects.compactMap { if case .dropped(let l, let r) = $0 { (l, r) } else { nil } } }
    var dropReasons: [DropReason] { dropped.map(\.1) }

    /// What `finished` recorded, as (title, started, ended, listened) in seconds from the start.
    var recorded: [Recorded] {
        finished.map { Recorded($0.metadata.title ?? "", $0.started, $0.ended, $0.listened) }
    }
}

/// A finished listen's essentials, times in seconds from the script's start, for readable asserts.
struct Recorded: Equatable, CustomStringConvertible {
    var title: String
    var started: Double
    var ended: Double
    var listened: Double

    init(_ title: String, _ started: Microseconds, _ ended: Microseconds, _ listened: Microseconds) {
        self.title = title
        self.started = Double(started - scriptStart) / 1e6
        self.ended = Double(ended - scriptStart) / 1e6
        self.listened = Double(listened) / 1e6
    }

    init(_ title: String, started: Double, ended: Double, listened: Double) {
        self.title = title
        self.started = started
        self.ended = ended
        self.listened = listened
    }

    var description: String { "\(title) [\(started)…\(ended)] heard \(listened)" }
}
