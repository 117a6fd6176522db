package import Clocks

/// The daily journaling suggestion's policy (issue 35, docs/journal-apps.md): when it comes, and
/// which moment it offers. Pure: the runtime gives it the clock, the person's local time and the
/// moments it read.
package enum DailySuggestion {
    /// A moment is worth writing about when it holds at least this many listens…
    package static let minimumListens = 3
    /// …heard for at least this long in all.
    package static let minimumListened: Microseconds = 10 * 60 * 1_000_000
    /// How many earlier years "On this day" looks back.
    package static let yearsBack = 5

    /// What a suggestion offers: a moment of today, or of the same date `yearsAgo` years before.
    package struct Choice: Equatable, Sendable {
        package var moment: Moment
        /// 0 for today's.
        package var yearsAgo: Int
    }

    /// The first instant after `now` whose local time of day is `time`, read with the offset in
    /// force at that instant: 21:00 stays 21:00 across a change of clocks. A time the change skips
    /// or repeats comes once, within an hour of it.
    package static func nextTime(after now: Microseconds, at time: TimeOfDay, localTime: LocalTime) -> Microseconds {
        let localNow = now + localTime.offset(now)
        let localMidnight = localNow - LocalTime.modulo(localNow, LocalTime.day)
        for days in 0...2 {
            let local = localMidnight + Microseconds(days) * LocalTime.day + Microseconds(time.seconds) * 1_000_000
            // The offset at the target instant, found from a first guess with today's offset.
            let guess = local - localTime.offset(now)
            let instant = local - localTime.offset(guess)
            if instant > now { return instant }
        }
        return now + LocalTime.day
    }

    /// Whether `moment` is worth a suggestion.
    package static func isWorthWriting(_ moment: Moment) -> Bool {
        moment.assets.count >= minimumListens && moment.listened >= minimumListened
    }

    /// The moment to suggest: today's most listened moment worth writing about; when today has
    /// none, the most listened one on the same date in the nearest earlier year that has one.
    /// `earlier` holds each earlier year's moments, by how many years ago.
    package static func choose(today: [Moment], earlier: [Int: [Moment]] = [:]) -> Choice? {
        if let moment = mostListened(today) { return Choice(moment: moment, yearsAgo: 0) }
        for yearsAgo in earlier.keys.sorted() {
            if let moment = mostListened(earlier[yearsAgo] ?? []) { return Choice(moment: moment, yearsAgo: yearsAgo) }
        }
        return nil
    }

    private static func mostListened(_ moments: [Moment]) -> Moment? {
        // Ties go to the later moment: the evening's over the morning's.
        moments.filter(isWorthWriting).max { ($0.listened, $0.started) < ($1.listened, $1.started) }
    }
}
