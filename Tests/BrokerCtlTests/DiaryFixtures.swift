import Foundation
import MediaDonationClient
@testable import broker_ctl

/// Moments and listens for the journal formats (`--format markdown|text`, `day`).
enum DiaryFixtures {
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!
    static let auckland = TimeZone(identifier: "Pacific/Auckland")!

    /// A title a player could send to take over a note: a link, HTML, a heading on a line of its
    /// own, emphasis, code, a table cell, strikethrough, an Obsidian comment, math and tag, and a
    /// character reference.
    static let hostileTitle =
        "Evil](javascript:alert(1)) <script>alert(1)</script>\n# Owned *bold* _it_ `code` [link](http://evil.example) "
        + "<a href=\"http://evil.example\">x</a> | ~~gone~~ %%hidden%% $x$ ==hi== &amp; #tag \\"

    /// A listen of `title` by Massive Attack from Mezzanine in mpv, 5 minutes long.
    static func listen(
        _ id: Int64, _ started: String, title: String = "Teardrop", art: String? = nil
    ) -> GenericMedia {
        let start = instant(started)
        return GenericMedia(
            id: id, title: title, artist: "Massive Attack", artists: ["Massive Attack"], album: "Mezzanine", appID: "mpv",
            appName: "mpv Media Player", date: start, ended: start.addingTimeInterval(300), listened: .seconds(300),
            length: .seconds(300), kind: .music, source: .mpris, artwork: art)
    }

    /// A moment of `listens`, from the first's start to the last's end, titled `title`: by the
    /// artist rule, so that the title broker-ctl words from the facts is `title` too.
    static func moment(_ title: String, of listens: [GenericMedia]) -> Moment {
        let started = listens.map(\.date).min() ?? fixedNow
        let ended = listens.compactMap(\.ended).max() ?? started
        return Moment(
            id: String(listens.map(\.id).min() ?? 0), title: title, started: started, ended: ended,
            listened: .seconds(300 * listens.count), count: listens.count, assetIDs: listens.map(\.id),
            artists: ["Massive Attack"], album: "Mezzanine", appIDs: ["mpv"], titleRule: .artist, artist: title)
    }

    /// Three moments near midnight UTC on 2026-12-02/03, whose listening days differ by zone:
    ///
    /// | moment | UTC | Los Angeles (−8) | Auckland (+13) |
    /// |---|---|---|---|
    /// | Dawn | 12-02 11:30 | 12-02 03:30, day 12-01 | 12-03 00:30, day 12-02 |
    /// | Afternoon | 12-02 23:30 | 12-02 15:30, day 12-02 | 12-03 12:30, day 12-03 |
    /// | Evening | 12-03 02:30 | 12-02 18:30, day 12-02 | 12-03 15:30, day 12-03 |
    ///
    /// Grouped in UTC they would fall on 12-02, 12-02, 12-03: wrong in both zones.
    static let nearMidnightListens = [
        listen(1, "2026-12-02T11:30:00Z", title: "Dawn track"),
        listen(2, "2026-12-02T23:30:00Z", title: "Afternoon track"),
        listen(3, "2026-12-03T02:30:00Z", title: "Evening track"),
    ]
    /// Newest first, as the broker answers.
    static let nearMidnightMoments = [
        moment("Evening", of: [nearMidnightListens[2]]),
        moment("Afternoon", of: [nearMidnightListens[1]]),
        moment("Dawn", of: [nearMidnightListens[0]]),
    ]

    static func nearMidnightBroker() -> FakeBroker {
        FakeBroker(media: .success(nearMidnightListens), moments: nearMidnightMoments)
    }
}
