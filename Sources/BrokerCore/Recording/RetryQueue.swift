/// Records the store refused for a reason that may pass (a full or read-only disk, an I/O error, a
/// lock), waiting in memory to be tried again. Pure: the caller arms the timer it is told to and
/// hands back what it takes out.
///
/// At most ``maximum`` wait; one more is dropped. One retry timer at a time: its delay starts at
/// ``firstDelay`` and doubles with each refusal that arms it, up to ``longestDelay``; a record
/// stored resets it.
struct RetryQueue<Record> {
    /// How many records may wait (each is one asset: a few KiB at the most).
    static var maximum: Int { 1000 }
    static var firstDelay: Duration { .seconds(1) }
    static var longestDelay: Duration { .seconds(60) }

    /// Oldest first.
    private(set) var waiting: [Record] = []
    private(set) var isTimerArmed = false
    private var delay = RetryQueue.firstDelay

    /// What became of a refused record.
    package enum Outcome: Equatable {
        /// It waits; arm a timer for this delay, which then calls ``takeForRetry()``.
        case keptArmTimer(after: Duration)
        /// It waits for the timer already armed.
        case kept
        /// Too many wait already: it is dropped.
        case dropped
    }

    mutating func refused(_ record: Record) -> Outcome {
        guard waiting.count < Self.maximum else { return .dropped }
        waiting.append(record)
        guard !isTimerArmed else { return .kept }
        isTimerArmed = true
        defer { delay = min(delay * 2, Self.longestDelay) }
        return .keptArmTimer(after: delay)
    }

    /// The timer fired: every waiting record, to be tried again in order.
    mutating func takeForRetry() -> [Record] {
        isTimerArmed = false
        defer { waiting.removeAll() }
        return waiting
    }

    /// A record was stored; whether the store had been refusing (the delay was raised).
    mutating func stored() -> Bool {
        defer { delay = Self.firstDelay }
        return delay != Self.firstDelay
    }

    /// Everything still waiting, taken out (the broker stops).
    mutating func takeAll() -> [Record] {
        isTimerArmed = false
        defer { waiting.removeAll() }
        return waiting
    }
}
