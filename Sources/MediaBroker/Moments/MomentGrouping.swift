/// How a listening day's assets become moments: a listen joins the moment before it when it
/// starts no more than `gap` after the latest end so far (across apps); one more microsecond of
/// silence begins a new moment. A moment never crosses the start of a listening day (04:00 local,
/// ``LocalTime``) and, like the suggestions Apple's journaling picker offers, holds at most
/// ``maximumListens``: a longer run is split every ``maximumListens`` listens, counted from its
/// start, so a moment's assets and `id` do not depend on where a query begins, and a page of
/// moments costs the same however dense the history. Pure.
enum MomentGrouping {
    static let defaultGap: Microseconds = 30 * 60_000_000
    static let gaps: ClosedRange<Microseconds> = 60_000_000...(6 * 3_600_000_000)
    static let maximumListens = 13

    /// `day`: one listening day's assets, oldest first (by `started`, then `id`). The moments,
    /// oldest first, each oldest asset first.
    static func group(_ day: [MediaAsset], gap: Microseconds) -> [ArraySlice<MediaAsset>] {
        var moments: [ArraySlice<MediaAsset>] = []
        var start = day.startIndex
        var latestEnd = Microseconds.min
        for index in day.indices {
            let asset = day[index]
            let silence = latestEnd == .min ? 0 : asset.started - latestEnd
            if index > start, silence > gap || index - start == maximumListens {
                moments.append(day[start..<index])
                start = index
                latestEnd = .min
            }
            latestEnd = max(latestEnd, asset.ended, asset.started)
        }
        if start < day.endIndex { moments.append(day[start...]) }
        return moments
    }
}
