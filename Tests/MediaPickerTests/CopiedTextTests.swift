import FoundationEssentials
import MediaDonationClient
@testable import MediaPicker
import Testing

/// What *Copy* puts on the clipboard (issue 35 §4): the moment's title and times, then each picked
/// listen on a line of its own, oldest first, whatever the player's words hold.
@Suite struct CopiedTextTests {
    static func at(_ minutes: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + minutes * 60) }
    /// Minutes since the first listen, so the lines can be read without a time zone.
    static func clock(_ date: Date) -> String { "+\(Int(date.timeIntervalSince(at(0)) / 60))" }

    static let angel = GenericMedia(id: 1, title: "Angel", artists: ["Massive Attack"], album: "Mezzanine", date: at(0))
    static let teardrop = GenericMedia(id: 3, title: "Teardrop", artists: ["Massive Attack", "Elizabeth Fraser"], album: "Mezzanine", date: at(10))
    static let moment = Moment(id: "m1", title: "Mezzanine — Massive Attack", started: at(0), ended: at(15), listened: .seconds(900),
                               count: 2, assetIDs: [1, 3], titleRule: .album)

    @Test("a moment's heading, then its listens oldest first, each with its time, artists and album")
    func moment() {
        #expect(CopiedText.of([Self.teardrop, Self.angel], moment: Self.moment, clock: Self.clock) == """
            Mezzanine — Massive Attack · +0–+15
            +0 Angel — Massive Attack · Mezzanine
            +10 Teardrop — Massive Attack, Elizabeth Fraser · Mezzanine

            """)
    }

    @Test("a single listen is its line alone; missing words are left out, a missing title says so")
    func single() {
        let bare = GenericMedia(id: 2, date: Self.at(5))
        #expect(CopiedText.of([bare], moment: nil, clock: Self.clock) == "+5 Untitled\n")
        #expect(CopiedText.of([Self.angel], moment: nil, clock: Self.clock) == "+0 Angel — Massive Attack · Mezzanine\n")
    }

    @Test("a line break or other control character in a player's words cannot start a line of its own")
    func controlCharacters() {
        let forged = GenericMedia(id: 4, title: "Song\n+99 Forged — Nobody", artists: ["A\tB"], album: "X\r", date: Self.at(1))
        #expect(CopiedText.of([forged], moment: nil, clock: Self.clock) == "+1 Song +99 Forged — Nobody — A B · X \n")
    }
}
