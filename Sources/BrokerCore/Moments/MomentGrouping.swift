/// How a listening day's assets become moments: a listen joins the moment before it when it
/// starts no more than `gap` after the latest end so far (across apps); one more microsecond of
/// silence begins a new moment. A moment never crosses the start of a listening day (04:00 local,
/// ``LocalTime``) and, like the suggestions Apple's journaling picker offers, holds at most
/// ``maximumListens``: a longer run is split every ``maximumListens`` listens, counted from its
/// start, so a moment's assets and `id` do not depend on where a query begins, and a page of
/// moments costs the same however dense the history. Pure.
package enum MomentGrouping {
    static let defaultGap: Microseconds = 30 * 60_000_000
    package static let gaps: ClosedRange<Microseconds> = 60_000_000...(6 * 3_600_000_000)
    static let maximumListens = 13

    /// `day`: one listening day's listens, oldest first (by `started`, then `id`). The moments,
    /// oldest first, each oldest listen first.
    package static func group<Listen: TimeSpan>(_ day: [Listen], gap: Microseconds) -> [ArraySlice<Listen>] {
        var moments: [ArraySlice<Listen>] = []
        var start = day.startIndex
        var latestEnd = Microseconds.min
        for index in day.indices {
            let listen = day[index]
            let silence = latestEnd == .min ? 0 : listen.started - latestEnd
            if index > start, silence > gap || index - start == maximumListens {
                moments.append(day[start..<index])
                start = index
                latestEnd = .min
            }
            latestEnd = max(latestEnd, listen.ended, listen.started)
        }
        if start < day.endIndex { moments.append(day[start...]) }
        return moments
    }
}

/// What grouping needs of a listen: when it started and ended.
package protocol TimeSpan {
    var started: Microseconds { get }
    var ended: Microseconds { get }
}

extension MediaAsset: TimeSpan {}

/// A stored listen as grouping reads it, before the page's moments are read whole.
package struct StoredSpan: TimeSpan, Equatable {
    package let id: Int64
    package let started: Microseconds
    package let ended: Microseconds

    package init(id: Int64, started: Microseconds, ended: Microseconds) {
        self.id = id
        self.started = started
        self.ended = ended
    }
}
