import Testing
@testable import BrokerCore

/// The title a moment gets, by each rule, and the facts that went into it.
@Suite("Moments: titles a person would write")
struct MomentTitleTests {
    static let minute: Microseconds = 60_000_000
    /// 21:04 UTC.
    static let evening: Microseconds = (21 * 60 + 4) * minute

    static func listen(_ title: String, artist: String?, album: String? = nil, minutes: Microseconds = 4,
                       kind: MediaAsset.Kind? = .music) -> MediaAsset {
        MediaAsset(id: 1, title: title, artists: artist.map { [$0] } ?? [], album: album, appID: "mpv", started: evening,
                   ended: evening + minutes * minute, listened: minutes * minute, kind: kind, source: .mpris)
    }

    static func title(_ assets: [MediaAsset]) -> MomentTitle {
        Moment(assets[...], localTime: .fixed(hours: 0)).title
    }

    @Test("one album for most of the listened time: 'Album — Artist'")
    func album() {
        let title = Self.title([
            Self.listen("Angel", artist: "Massive Attack", album: "Mezzanine"),
            Self.listen("Teardrop", artist: "Massive Attack", album: "Mezzanine"),
            Self.listen("Glory Box", artist: "Portishead", album: "Dummy", minutes: 5),
        ])
        #expect(title.rule == .album && title.text == "Mezzanine — Massive Attack")
        #expect(title.album == "Mezzanine" && title.artist == "Massive Attack" && title.trackCount == 3 && title.artistCount == 2)
    }

    @Test("exactly half is not most: an album heard for half the time does not name the moment")
    func halfIsNotMost() {
        let title = Self.title([
            Self.listen("Angel", artist: "Massive Attack", album: "Mezzanine", minutes: 2),
            Self.listen("Teardrop", artist: "Massive Attack", album: "Mezzanine", minutes: 2),
            Self.listen("Roads", artist: "Portishead", album: "Dummy", minutes: 2),
            Self.listen("Sour Times", artist: "Portishead", album: "Dummy", minutes: 2),
        ])
        #expect(title.rule == .mixed)
    }

    @Test("one artist across albums: 'Artist'; a single listen is named by its artist, not its album")
    func artist() {
        let title = Self.title([
            Self.listen("Angel", artist: "Massive Attack", album: "Mezzanine"),
            Self.listen("Unfinished Sympathy", artist: "Massive Attack", album: "Blue Lines"),
        ])
        #expect(title.rule == .artist && title.text == "Massive Attack" && title.artist == "Massive Attack")
        #expect(Self.title([Self.listen("Angel", artist: "Massive Attack", album: "Mezzanine")]).rule == .artist)
    }

    @Test("a podcast: the show and the episode, or the show and how many episodes")
    func show() {
        let one = Self.title([Self.listen("Episode 12: Tides", artist: "Host", album: "The Sea Show", minutes: 40, kind: .podcast),
                              Self.listen("Song", artist: "Band", album: "LP", minutes: 3)])
        #expect(one.rule == .show && one.text == "The Sea Show: Episode 12: Tides" && one.episode == "Episode 12: Tides")
        let two = Self.title([Self.listen("Ep 1", artist: "Host", album: "The Sea Show", minutes: 40, kind: .podcast),
                              Self.listen("Ep 2", artist: "Host", album: "The Sea Show", minutes: 40, kind: .podcast)])
        #expect(two.rule == .show && two.text == "The Sea Show · 2 episodes" && two.episode == nil)
    }

    @Test("anything else: the part of the day and the numbers")
    func mixed() {
        let title = Self.title([
            Self.listen("A", artist: "One"), Self.listen("B", artist: "Two"), Self.listen("C", artist: "Three"),
        ])
        #expect(title.rule == .mixed && title.text == "Evening listening · 3 tracks by 3 artists")
        #expect(title.partOfDay == .evening && title.trackCount == 3 && title.artistCount == 3)
        let untold = Self.title([Self.listen("A", artist: nil), Self.listen("B", artist: nil)])
        #expect(untold.text == "Evening listening · 2 tracks")
    }
}
