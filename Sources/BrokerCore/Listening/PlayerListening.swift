/// The listening state of one player (one unique bus name): turns what the player says, with the
/// time it was said, into listens.
///
/// Pure logic: no bus, no file, no clock. The caller passes each event with the moment it happened
/// (microseconds since the epoch, non-decreasing; a step backwards counts nothing and breaks no
/// invariant) and performs the returned ``ListenEffect``s in order. It asks ``nextDeadline(at:)``
/// when to send ``PlayerEvent/tick`` — only while something plays; no timer is needed otherwise.
///
/// The rules (issue 3, mpris-quirks.md):
/// - `listened` is wall-clock time in Playing × Rate. A pause stops the clock; a seek adds nothing,
///   so jumping to 90 % counts nothing while seeking back and replaying counts (quirks 20, 21).
/// - A listen begins at the first moment its track is Playing — never while Paused or Stopped, so a
///   stopped player's metadata makes no listen (quirk 19) — and is open (shown as playing) once its
///   metadata is recordable: a title, not a placeholder, not an advert, not excluded.
/// - An open listen is first written (``ListenEffect/opened(_:)``) once it has been heard for
///   ``firstWriteAfter`` or has crossed its threshold, whichever comes first. A track that ends
///   before that leaves no trace — no write, no drop — so a player flooding track changes that
///   nobody hears costs the store nothing (issue 16). A crash can lose at most those first seconds
///   of a listen that had not counted yet.
/// - Stopped, another track, the player leaving and the broker stopping end it; it is recorded when
///   it qualifies under the ``ListenRule``. So do Paused at the track's end — the position (from
///   `Seeked` or a `Position` read, counted on while playing) within ``endOfTrackWindow`` of the
///   length — and a pause longer than ``longestPause``; playing again after either starts a new
///   listen (issue 17: a finished `<audio>` in Firefox stays Paused at its end while the tab lives).
/// - A listen begun by ``PlayerEvent/playingSince(_:)`` — the player was already playing when the
///   broker met it — begins at that moment, and the time since counts as heard.
/// - A `Metadata` value equal to the last is dropped before any other work (quirks 7, 8). One that
///   names the same track with fields filled in or left out (``TrackMetadata/isSameTrack(as:)``)
///   updates the listen, which keeps its start and takes the fullest metadata. A title arriving
///   within ``fillInWindow`` of heard time after untitled metadata completes it; later, it is a new
///   track. `PlaybackStatus` not re-sent on a track change keeps the last one (quirk 10).
/// - A `Seeked` to within ``loopRestartWindow`` of the start after a qualifying listen ends that
///   listen and starts a new one of the same track (repeat-one, quirk 22) — unless it is at or past
///   the position told within ``stallWindow`` and the track had not reached its end: a player
///   catching up after a stall (Chromium buffering) has not gone back. A player that loops
///   without any signal at all cannot be told from one that keeps playing: that is one listen whose
///   `listened` covers every loop — counted, never double counted.
/// - An advert or excluded item is never recorded; if that is learnt after the listen was opened
///   (a fill-in adds the flag), the listen is dropped and this play-through never reopens.
/// - Checkpoints, once written: when the playback state changes (Playing ↔ Paused), when the
///   recorded metadata changes, when the listen first crosses its threshold, and every
///   ``checkpointInterval`` of playing. Rate changes and seeks alone write nothing; neither do
///   floods of identical signals.
package struct PlayerListening: Sendable {
    /// A `Seeked` to at most this position (µs) after a qualifying listen is a restart (2 s)…
    static let loopRestartWindow: Microseconds = 2_000_000
    /// …when it goes back from where the player was (or from all it was heard playing, its position
    /// never told) by this much (1 s), or by half of that when less was heard: a `Seeked` telling
    /// where the player already is (Chromium tells it so now and then) starts nothing.
    static let restartDistance: Microseconds = 1_000_000
    /// A `Seeked` at or past the position told within this long (5 s) is a player catching up after
    /// a stall — Chromium buffering repeats where it is while Playing — unless the track had
    /// reached its end: a loop.
    static let stallWindow: Microseconds = 5_000_000
    /// How much may be heard of untitled metadata before a title that completes it counts as a new
    /// track instead (2 s: players fill in within a few hundred ms).
    static let fillInWindow: Microseconds = 2_000_000
    /// The fastest rate counted (16×); faster rates count as this.
    static let maximumRate: Double = 16
    /// The default time between checkpoints of a long listen while it plays (5 minutes).
    static let defaultCheckpointInterval: Microseconds = 300_000_000
    /// How long a listen is heard before it is first written, unless its threshold comes sooner (5 s).
    static let firstWriteAfter: Microseconds = 5_000_000
    /// Paused at most this far from the track's end is paused at its end: the track ended (1 s;
    /// Firefox reports `Position` in whole seconds).
    static let endOfTrackWindow: Microseconds = 1_000_000
    /// A listen paused for longer than this has ended (10 minutes): it is finished, and playing on
    /// later starts a new listen, so a tab left paused overnight is not a listen still going on.
    static let longestPause: Microseconds = 600_000_000

    /// When a listen counts.
    package let rule: ListenRule
    /// Time between periodic checkpoints while playing; `nil`: only at state changes and threshold.
    package let checkpointInterval: Microseconds?

    /// The player's last known status; `nil` before the first one.
    package private(set) var status: PlaybackStatus?
    /// The player's last `Metadata`, as sent (the listen keeps the fullest).
    package private(set) var metadata: TrackMetadata?
    /// The rate counted: the player's `Rate` made safe (see ``PlayerEvent/rate(_:)``).
    package private(set) var rate: Double = 1

    /// The play-through in progress: from the first moment Playing with a track to its end.
    private var play: Play?
    /// Where the track was when last told (`Seeked`, `Position`), or worked out at a change of
    /// state, and when; `nil` when unknown (a new track, or nothing told yet).
    private var position: ToldPosition?
    typealias ToldPosition = (value: Microseconds, at: Microseconds)
    /// Numbers this player's listens, so keys stay unique even at the same microsecond.
    private var serial: UInt64 = 0

    private struct Play: Sendable {
        var listen: Listen
        /// Recordable, and not yet ended or dropped: ``current`` shows it.
        var isOpen = false
        /// Written with `.opened`: what happens to it from now on reaches the store.
        var isWritten = false
        /// Dropped (advert, excluded, discarded): never opened again.
        var isDead = false
        /// `listened` counts up to this moment.
        var clock: Microseconds
        /// Whether a record written for this listen already qualified. Sticky: the threshold
        /// checkpoint is written once, even if a revised length moves the threshold back and forth.
        var crossedThreshold = false
        var lastCheckpoint: Microseconds
        /// A state change happened since the last write.
        var checkpointDue = false
        /// When the player paused, while it is paused.
        var pausedSince: Microseconds?
    }

    package init(rule: ListenRule = .default, checkpointInterval: Microseconds? = Self.defaultCheckpointInterval) {
        self.rule = rule
        self.checkpointInterval = checkpointInterval.map { max($0, 1_000_000) }
    }

    /// Picks up a listen a previous run left open (issue 3 §3), when the player is still on the bus
    /// with the same track: `metadata` is what the player says now and must be the same track
    /// (``TrackMetadata/isSameTrack(as:)``) and recordable, and `status` Playing or Paused.
    /// Otherwise `nil`: the caller finishes the record as it is (recorded if
    /// `rule.qualifies(listened:length:)`, else removed).
    ///
    /// Playing now: the time since the last checkpoint counts — the person was listening while the
    /// broker was down — unless it is longer than the track, which cannot be one play-through
    /// (then `nil`). Paused now: nothing more counts (when it was paused is unknown; the checkpoint
    /// is the honest bound). The listen keeps its key and start, takes the player's metadata over
    /// the stored fields, and a checkpoint is due at once: call `handle(.tick, at: now)` next.
    package init?(
        rule: ListenRule = .default, resuming listen: Listen, metadata: TrackMetadata, status: PlaybackStatus,
        rate: Double = 1, at now: Microseconds,
        checkpointInterval: Microseconds? = Self.defaultCheckpointInterval
    ) {
        guard status != .stopped, metadata.isRecordable, metadata.isSameTrack(as: listen.metadata) else { return nil }
        if status == .playing, let length = metadata.length ?? listen.length,
            Clock.elapsed(from: listen.ended, to: now) > length
        {
            return nil
        }
        self.init(rule: rule, checkpointInterval: checkpointInterval)
        self.status = status
        self.metadata = metadata
        self.rate = Self.countedRate(rate) ?? 1
        var resumed = listen
        resumed.metadata = metadata.merged(over: listen.metadata)
        play = Play(
            listen: resumed, isOpen: true, isWritten: true, clock: status == .playing ? listen.ended : now,
            crossedThreshold: rule.qualifies(listened: listen.listened, length: listen.length),
            lastCheckpoint: listen.ended, checkpointDue: true, pausedSince: status == .paused ? now : nil)
        advance(to: now)
    }

    // MARK: - Reading

    /// The open listen (for `NowPlaying`), playing or paused, as of the last event; `nil` when
    /// nothing recordable is in progress. ``status`` tells whether it is playing.
    package var current: Listen? {
        guard let play, play.isOpen else { return nil }
        return play.listen
    }

    /// The open listen with its time counted up to `now`.
    package func current(at now: Microseconds) -> Listen? {
        guard let play, play.isOpen else { return nil }
        var listen = play.listen
        if isClockRunning {
            listen.listened = Clock.add(listen.listened, counted(Clock.elapsed(from: play.clock, to: now)))
            listen.ended = max(listen.ended, now)
        }
        return listen
    }

    /// When the caller should send ``PlayerEvent/tick`` next: the moment the open listen is first
    /// written, crosses its threshold or is due its next periodic checkpoint, or now when a
    /// checkpoint is due; `nil` when nothing is open and playing — no timer then.
    package func nextDeadline(at now: Microseconds) -> Microseconds? {
        guard let play, play.isOpen else { return nil }
        if status == .paused, let pausedSince = play.pausedSince, !(play.isWritten && play.checkpointDue) {
            return max(Clock.add(pausedSince, Self.longestPause), now)
        }
        guard play.isWritten else {
            guard isClockRunning else { return nil }
            let firstWrite = min(Self.firstWriteAfter, rule.threshold(length: play.listen.length) ?? .max)
            return moment(heard: firstWrite, play: play, now: now)
        }
        if play.checkpointDue { return now }
        guard isClockRunning else { return nil }
        var deadline: Microseconds?
        if !play.crossedThreshold, let threshold = rule.threshold(length: play.listen.length) {
            deadline = moment(heard: max(threshold, 1), play: play, now: now)
        }
        if let checkpointInterval {
            let periodic = max(Clock.add(play.lastCheckpoint, checkpointInterval), now)
            deadline = min(deadline ?? periodic, periodic)
        }
        return deadline
    }

    /// The moment, while the clock runs, at which `play` will have been heard for `target`.
    private func moment(heard target: Microseconds, play: Play, now: Microseconds) -> Microseconds {
        let heard = Clock.add(play.listen.listened, counted(Clock.elapsed(from: play.clock, to: now)))
        let remaining = Clock.add(target, Clock.negated(heard))
        return remaining <= 0 ? now : Clock.add(now, wallTime(for: remaining))
    }

    // MARK: - Events

    /// Applies one event that happened at `now` and returns what the caller must do, in order.
    /// An event that changes nothing (an identical status, metadata or rate) returns `[]` at once.
    package mutating func handle(_ event: PlayerEvent, at now: Microseconds) -> [ListenEffect] {
        var effects: [ListenEffect] = []
        if let pausedSince = play?.pausedSince, Clock.elapsed(from: pausedSince, to: now) >= Self.longestPause {
            end(&effects)
        }
        switch event {
        case .playbackStatus(let new):
            guard new != status else { return effects }
            advance(to: now)
            setStatus(new, at: now, &effects)
        case .playingSince(let since):
            guard status != .playing else { return effects }
            advance(to: now)
            setStatus(.playing, at: now, since: min(since, now), &effects)
        case .metadata(let new):
            guard new != metadata else { return effects }
            effects.reserveCapacity(2)  // a track change finishes one listen and opens the next
            advance(to: now)
            // A position told was about the track before (a fill-in is still that track), or, told
            // before any track, about none the broker knows (a player taking its name again
            // between tracks repeats where the last one ended).
            if !(metadata.map { new.isSameTrack(as: $0) || new.fillsIn(untitled: $0) } ?? false) { position = nil }
            metadata = new
            trackChanged(to: new, at: now, &effects)
        case .rate(let raw):
            guard let new = Self.countedRate(raw), new != rate else { return effects }
            advance(to: now)
            position = currentPosition(at: now).map { ($0, now) }
            rate = new
        case .seeked(let position):
            advance(to: now)
            let was = currentPosition(at: now), lastTold = self.position
            told(position: position, at: now)
            restartIfLooped(position: position, was: was, lastTold: lastTold, at: now, &effects)
            endIfPausedAtTrackEnd(at: now, &effects)
        case .position(let position):
            advance(to: now)
            told(position: position, at: now)
            endIfPausedAtTrackEnd(at: now, &effects)
        case .tick:
            advance(to: now)
        case .playerGone:
            advance(to: now)
            end(&effects)
            status = nil
            metadata = nil
            rate = 1
            position = nil
        case .brokerStopping:
            advance(to: now)
            end(&effects)
        case .appChanged:
            advance(to: now)
            play?.checkpointDue = true
        case .discard:
            advance(to: now)
            discard(&effects)
        }
        checkpointIfDue(at: now, &effects)
        return effects
    }

    /// `since`: when Playing began, for a listen this begins (``PlayerEvent/playingSince(_:)``).
    private mutating func setStatus(_ new: PlaybackStatus, at now: Microseconds, since: Microseconds? = nil,
                                    _ effects: inout [ListenEffect]) {
        let old = status
        // The position stops or starts moving with the status.
        position = currentPosition(at: now).map { ($0, now) }
        status = new
        switch new {
        case .playing:
            if play != nil {
                play!.clock = now
                play!.checkpointDue = true
                play!.pausedSince = nil
            } else if let metadata {
                begin(metadata, at: since ?? now, &effects)
                if since != nil { advance(to: now) }
            }
        case .paused:
            if old == .playing {
                play?.checkpointDue = true
                play?.pausedSince = now
            }
            endIfPausedAtTrackEnd(at: now, &effects)
        case .stopped:
            end(&effects)
        }
    }

    // MARK: - Position

    /// Where the track is at `now` by what was last told (`Seeked`, `Position`), counted on while
    /// it plays; `nil` when nothing was told about this track.
    package func position(at now: Microseconds) -> Microseconds? { currentPosition(at: now) }

    private func currentPosition(at now: Microseconds) -> Microseconds? {
        guard let position else { return nil }
        guard isClockRunning else { return position.value }
        return Clock.add(position.value, counted(Clock.elapsed(from: position.at, to: now)))
    }

    private mutating func told(position value: Microseconds, at now: Microseconds) {
        position = (0...TrackMetadata.Limits.maximumLength).contains(value) ? (value, now) : nil
    }

    /// Ends the listen when the player is Paused at the end of its track: the track ended.
    private mutating func endIfPausedAtTrackEnd(at now: Microseconds, _ effects: inout [ListenEffect]) {
        guard status == .paused, let current = play, let length = current.listen.length ?? metadata?.length,
              let position = currentPosition(at: now),
              position >= Clock.add(length, -Self.endOfTrackWindow)
        else { return }
        end(&effects)
    }

    private mutating func trackChanged(to new: TrackMetadata, at now: Microseconds, _ effects: inout [ListenEffect]) {
        guard var current = play else {
            if status == .playing { begin(new, at: now, &effects) }
            return
        }
        let before = current.listen.metadata
        let sameTrack =
            new.isSameTrack(as: before)
            || (new.fillsIn(untitled: before) && current.listen.listened <= Self.fillInWindow)
        guard sameTrack else {
            end(&effects)
            if status == .playing { begin(new, at: now, &effects) }
            return
        }
        let merged = new.merged(over: before)
        current.listen.metadata = merged
        defer { play = current }
        guard !current.isDead else { return }
        if current.isOpen {
            if let reason = merged.dropReason {
                if current.isWritten { effects.append(.dropped(current.listen, reason)) }
                current.isOpen = false
                current.isDead = true
            } else if Self.recordedFieldsDiffer(before, merged) {
                current.checkpointDue = true
            }
        } else if merged.isRecordable {
            open(&current, at: now, &effects)
        }
    }

    private mutating func restartIfLooped(position: Microseconds, was: Microseconds?, lastTold: ToldPosition?,
                                          at now: Microseconds, _ effects: inout [ListenEffect]) {
        guard let current = play, (0...Self.loopRestartWindow).contains(position),
            rule.qualifies(listened: current.listen.listened, length: current.listen.length),
            Self.goesBack(to: position, from: max(was ?? 0, current.listen.listened)),
            !Self.isStalled(position: position, lastTold: lastTold, was: was, length: current.listen.length ?? metadata?.length, at: now)
        else { return }
        end(&effects)
        if status == .playing { begin(current.listen.metadata, at: now, &effects) }
    }

    /// Whether a `Seeked` to `position` only says the player moved on less than its clock did: at or
    /// past where it said it was a moment ago, short of the track's end (see ``stallWindow``).
    static func isStalled(position: Microseconds, lastTold: ToldPosition?, was: Microseconds?,
                          length: Microseconds?, at now: Microseconds) -> Bool {
        guard let lastTold, position >= lastTold.value, Clock.elapsed(from: lastTold.at, to: now) <= stallWindow else { return false }
        guard let length, let was else { return true }
        return was < Clock.add(length, -endOfTrackWindow)
    }

    /// Whether a `Seeked` to `position` went back from `reference` (see ``restartDistance``).
    static func goesBack(to position: Microseconds, from reference: Microseconds) -> Bool {
        Clock.add(position, min(restartDistance, reference / 2)) <= reference
    }

    private mutating func discard(_ effects: inout [ListenEffect]) {
        guard var current = play else { return }
        if current.isOpen, current.isWritten { effects.append(.dropped(current.listen, .discarded)) }
        current.isOpen = false
        current.isDead = true
        play = current
    }

    // MARK: - Listens

    private mutating func begin(_ metadata: TrackMetadata, at now: Microseconds, _ effects: inout [ListenEffect]) {
        serial &+= 1
        let listen = Listen(key: Self.key(started: now, serial: serial), metadata: metadata, started: now, ended: now, listened: 0)
        var new = Play(listen: listen, clock: now, lastCheckpoint: now)
        if metadata.isRecordable { open(&new, at: now, &effects) }
        play = new
    }

    /// A listen's ``Listen/key``: `"<started>-<serial>"`.
    static func key(started: Microseconds, serial: UInt64) -> String { "\(started)-\(serial)" }

    /// Makes the play-through open; it is written once heard long enough (see `checkpointIfDue`).
    private func open(_ play: inout Play, at now: Microseconds, _ effects: inout [ListenEffect]) {
        play.isOpen = true
        write(&play, at: now, &effects)
    }

    /// Writes an open, unwritten listen once it has been heard for ``firstWriteAfter`` or crossed
    /// its threshold; whether it is written now.
    @discardableResult
    private func write(_ play: inout Play, at now: Microseconds, _ effects: inout [ListenEffect]) -> Bool {
        guard !play.isWritten else { return true }
        let qualifies = rule.qualifies(listened: play.listen.listened, length: play.listen.length)
        guard qualifies || play.listen.listened >= Self.firstWriteAfter else { return false }
        play.isWritten = true
        play.crossedThreshold = qualifies
        play.lastCheckpoint = now
        play.checkpointDue = false
        effects.append(.opened(play.listen))
        return true
    }

    /// Ends the play-through: an open listen that qualifies is finished, a written one that does
    /// not is dropped; anything else leaves no trace.
    private mutating func end(_ effects: inout [ListenEffect]) {
        guard let ended = play else { return }
        play = nil
        guard ended.isOpen else { return }
        if rule.qualifies(listened: ended.listen.listened, length: ended.listen.length) {
            effects.append(.finished(ended.listen))
        } else if ended.isWritten {
            effects.append(.dropped(ended.listen, .tooShort))
        }
    }

    private mutating func checkpointIfDue(at now: Microseconds, _ effects: inout [ListenEffect]) {
        guard var current = play, current.isOpen else { return }
        guard current.isWritten else {
            if write(&current, at: now, &effects) { play = current }
            return
        }
        let qualifies = rule.qualifies(listened: current.listen.listened, length: current.listen.length)
        var due = current.checkpointDue || (qualifies && !current.crossedThreshold)
        if !due, isClockRunning, let checkpointInterval {
            due = Clock.elapsed(from: current.lastCheckpoint, to: now) >= checkpointInterval
        }
        guard due else { return }
        current.checkpointDue = false
        current.crossedThreshold = current.crossedThreshold || qualifies
        current.lastCheckpoint = now
        effects.append(.checkpoint(current.listen))
        play = current
    }

    /// Whether a change between two metadata values of one track changes what the record shows. The
    /// length alone does not (mpv revises it mid-stream): it is written at the next checkpoint.
    private static func recordedFieldsDiffer(_ a: TrackMetadata, _ b: TrackMetadata) -> Bool {
        a.title != b.title || a.artists != b.artists || a.album != b.album || a.kind != b.kind
    }

    // MARK: - Time

    private var isClockRunning: Bool { status == .playing && rate > 0 }

    /// Counts the time from the play's clock to `now` when playing.
    private mutating func advance(to now: Microseconds) {
        guard play != nil else { return }
        if isClockRunning {
            let heard = counted(Clock.elapsed(from: play!.clock, to: now))
            play!.listen.listened = Clock.add(play!.listen.listened, heard)
            if now > play!.listen.ended { play!.listen.ended = now }
        }
        play!.clock = now
    }

    /// Media time heard in `wall` microseconds of playing at the current rate.
    private func counted(_ wall: Microseconds) -> Microseconds {
        if rate == 1 { return wall }
        if rate <= 0 { return 0 }
        return Clock.microseconds(Double(wall) * rate)
    }

    /// Wall time needed to hear `media` microseconds at the current rate (rounded up).
    private func wallTime(for media: Microseconds) -> Microseconds {
        if rate == 1 { return media }
        return Clock.microseconds((Double(media) / rate).rounded(.up))
    }

    /// The rate counted for a player's `Rate`: `nil` (ignored) for NaN, 0 for ≤ 0, at most ``maximumRate``.
    static func countedRate(_ raw: Double) -> Double? {
        if raw.isNaN { return nil }
        if raw <= 0 { return 0 }
        return min(raw, maximumRate)
    }
}

/// Saturating arithmetic on microseconds: hostile or broken times never trap.
enum Clock {
    /// `to − from`, or 0 when time went backwards; saturates.
    static func elapsed(from: Microseconds, to: Microseconds) -> Microseconds {
        guard to > from else { return 0 }
        let (difference, overflow) = to.subtractingReportingOverflow(from)
        return overflow ? .max : difference
    }

    /// `−value`, with `−Int64.min` saturating to `Int64.max`.
    static func negated(_ value: Microseconds) -> Microseconds { value == .min ? .max : -value }

    static func add(_ a: Microseconds, _ b: Microseconds) -> Microseconds {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    /// A finite, rounded double as microseconds, clamped to the representable range.
    static func microseconds(_ value: Double) -> Microseconds {
        guard !value.isNaN else { return 0 }
        if value >= 9.2e18 { return .max }
        if value <= -9.2e18 { return .min }
        return Microseconds(value.rounded())
    }
}
