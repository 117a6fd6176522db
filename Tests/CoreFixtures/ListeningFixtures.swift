package import BrokerCore

// Shared fixtures for the tests of the core and of the runtime: times, tracks, and a driver
// that feeds a PlayerListening a scripted player's events and keeps every effect.

/// One second in microseconds.
package let second: Microseconds = 1_000_000
/// An arbitrary start of the script (2023-11-14).
package let scriptStart: Microseconds = 1_700_000_000_000_000

/// The moment `seconds` after the script's start.
package func at(_ seconds: Double) -> Microseconds { scriptStart + Microseconds((seconds * 1_000_000).rounded()) }

/// A complete, recordable music track.
package func track(
    _ title: String = "Song", artists: [String] = ["Artist"], album: String? = "Album",
    length: Microseconds? = 200 * second, trackID: String? = nil
) -> TrackMetadata {
    TrackMetadata(trackID: trackID ?? "/org/mpris/MediaPlayer2/track/\(title.utf8.count)", title: title,
        artists: artists, album: album, length: length)
}

/// Feeds one player's events and records every effect, with helpers to look at them.
package struct ScriptedPlayer {
    package var listening: PlayerListening
    package private(set) var effects: [ListenEffect] = []
    /// Whether the player's deadline timer runs, as the tracker runs it: before each event, a
    /// `.tick` at every deadline that came due. Off, only the script's own ticks are sent.
    package let timers: Bool
    /// The latest moment an event was sent at.
    private var clock = scriptStart

    package init(rule: ListenRule = .lastFM, checkpointInterval: Microseconds? = nil, timers: Bool = false) {
        listening = PlayerListening(rule: rule, checkpointInterval: checkpointInterval)
        self.timers = timers
    }

    package init(resumed: PlayerListening) {
        listening = resumed
        timers = false
    }

    /// Sends `event` at `seconds` into the script (after the ticks due before it, with `timers`);
    /// returns that event's own effects.
    @discardableResult
    package mutating func send(_ event: PlayerEvent, at seconds: Double) -> [ListenEffect] {
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
    package mutating func play(_ metadata: TrackMetadata, at seconds: Double) {
        send(.metadata(metadata), at: seconds)
        send(.playbackStatus(.playing), at: seconds)
    }

    package var opened: [Listen] { effects.compactMap { if case .opened(let l) = $0 { l } else { nil } } }
    package var checkpoints: [Listen] { effects.compactMap { if case .checkpoint(let l) = $0 { l } else { nil } } }
    package var finished: [Listen] { effects.compactMap { if case .finished(let l) = $0 { l } else { nil } } }
    package var dropped: [(Listen, DropReason)] { effects.compactMap { if case .dropped(let l, let r) = $0 { (l, r) } else { nil } } }
    package var dropReasons: [DropReason] { dropped.map(\.1) }

    /// What `finished` recorded, as (title, started, ended, listened) in seconds from the start.
    package var recorded: [Recorded] {
        finished.map { Recorded($0.metadata.title ?? "", $0.started, $0.ended, $0.listened) }
    }
}

/// A finished listen's essentials, times in seconds from the script's start, for readable asserts.
package struct Recorded: Equatable, CustomStringConvertible {
    package var title: String
    package var started: Double
    package var ended: Double
    package var listened: Double

    package init(_ title: String, _ started: Microseconds, _ ended: Microseconds, _ listened: Microseconds) {
        self.title = title
        self.started = Double(started - scriptStart) / 1e6
        self.ended = Double(ended - scriptStart) / 1e6
        self.listened = Double(listened) / 1e6
    }

    package init(_ title: String, started: Double, ended: Double, listened: Double) {
        self.title = title
        self.started = started
        self.ended = ended
        self.listened = listened
    }

    package var description: String { "\(title) [\(started)…\(ended)] heard \(listened)" }
}
