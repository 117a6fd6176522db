import Testing
@testable import BrokerCore

/// How listens become moments, with no store: the gap boundary, apps mixed, the day's start, the
/// bound on a moment's size, and ids that stay as a moment grows.
@Suite("Moments: listens grouped by the silence between them")
struct MomentGroupingTests {
    static let minute: Microseconds = 60_000_000
    static let gap = MomentGrouping.defaultGap

    /// A listen of `minutes` starting `at` minutes after the origin.
    static func listen(_ id: Int64, at start: Microseconds, minutes: Microseconds = 4, app: String = "mpv") -> MediaAsset {
        MediaAsset(id: id, title: "T\(id)", artists: ["A"], appID: app, started: start * minute,
                   ended: (start + minutes) * minute, listened: minutes * minute, source: .mpris)
    }

    static func ids(_ moments: [ArraySlice<MediaAsset>]) -> [[Int64]] { moments.map { $0.compactMap(\.id) } }

    @Test("a silence of exactly the gap joins; one microsecond more splits")
    func gapBoundary() {
        let first = Self.listen(1, at: 0)
        var joined = Self.listen(2, at: 0)
        joined.started = first.ended + Self.gap
        joined.ended = joined.started + 4 * Self.minute
        #expect(Self.ids(MomentGrouping.group([first, joined], gap: Self.gap)) == [[1, 2]])
        var split = joined
        split.started += 1
        #expect(Self.ids(MomentGrouping.group([first, split], gap: Self.gap)) == [[1], [2]])
    }

    @Test("the silence is counted from the latest end so far, across apps")
    func acrossApps() {
        let long = Self.listen(1, at: 0, minutes: 60, app: "vlc")
        let short = Self.listen(2, at: 5, minutes: 3, app: "firefox")
        // 40 minutes after the short one ended, but within the gap of the long one's end.
        let next = Self.listen(3, at: 48, app: "mpv")
        let moments = MomentGrouping.group([long, short, next], gap: Self.gap)
        #expect(Self.ids(moments) == [[1, 2, 3]])
        #expect(Moment(moments[0], localTime: .fixed(hours: 0)).appIDs == ["vlc", "mpv", "firefox"])
    }

    @Test("a run longer than the bound is split every 13 listens from its start, whatever came later")
    func bounded() {
        let run = (0..<30).map { Self.listen(Int64($0 + 1), at: Microseconds($0) * 4) }
        let sizes = MomentGrouping.group(run, gap: Self.gap).map(\.count)
        #expect(sizes == [13, 13, 4])
        let grown = MomentGrouping.group(run + [Self.listen(31, at: 120)], gap: Self.gap)
        #expect(Self.ids(grown).prefix(2) == Self.ids(MomentGrouping.group(run, gap: Self.gap)).prefix(2))
    }

    @Test("a moment's id is its smallest asset id: it stays as the moment grows, even by a listen that began earlier")
    func stableID() {
        let day = [Self.listen(7, at: 0), Self.listen(8, at: 5)]
        let before = Moment(MomentGrouping.group(day, gap: Self.gap)[0], localTime: .fixed(hours: 0))
        let grown = [Self.listen(9, at: -2)] + day + [Self.listen(10, at: 12)]
        let after = Moment(MomentGrouping.group(grown, gap: Self.gap)[0], localTime: .fixed(hours: 0))
        #expect(before.id == "7" && after.id == "7")
        #expect(after.assets.count == 4 && after.started == -2 * Self.minute && after.ended == 16 * Self.minute)
    }

    @Test("the listening day begins at 04:00 local time, in any time zone")
    func dayStart() {
        let hour = LocalTime.hour
        let utc = LocalTime.fixed(hours: 0)
        #expect(utc.dayStart(containing: 10 * hour) == 4 * hour)
        #expect(utc.dayStart(containing: 3 * hour) == 4 * hour - LocalTime.day)
        #expect(utc.dayStart(containing: 4 * hour) == 4 * hour)
        let tokyo = LocalTime.fixed(hours: 9)
        // 20:00 UTC is 05:00 the next day in Tokyo: its day began at 04:00 Tokyo, 19:00 UTC.
        #expect(tokyo.dayStart(containing: 20 * hour) == 19 * hour)
        #expect(tokyo.clockTime(of: 20 * hour + 5 * 60_000_000) == "05:05" && tokyo.hour(of: 20 * hour) == 5)
        let newYork = LocalTime.fixed(hours: -5)
        #expect(newYork.dayStart(containing: 8 * hour) == 9 * hour - LocalTime.day)
    }

    @Test("parts of the day: morning 04–12, afternoon 12–17, evening 17–22, night 22–04")
    func partsOfDay() {
        #expect([3, 4, 11, 12, 16, 17, 21, 22, 0].map { PartOfDay(hour: $0) }
            == [.night, .morning, .morning, .afternoon, .afternoon, .evening, .evening, .night, .night])
    }
}
