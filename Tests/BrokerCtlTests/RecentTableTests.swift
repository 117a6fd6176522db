import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

@Suite struct RecentTableTests {
    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func aListenIsOneAlignedRowUnderTheHeaders() {
        let table = RecentOutput.table([.sample()], timeZone: utc, width: 100)
        #expect(
            table == """
                WHEN              TITLE     ARTIST          ALBUM      APP
                2026-11-29 13:00  Teardrop  Massive Attack  Mezzanine  mpv

                """)
    }

    @Test func timesAreShownInTheGivenLocalZone() {
        let table = RecentOutput.table([.sample(started: "2026-11-29T23:30:00Z")], timeZone: plusTwo, width: 100)
        #expect(lines(table)[1].hasPrefix("2026-11-30 01:30  "))
    }

    @Test func newestComesFirstWhateverOrderTheBrokerUsed() {
        let media: [GenericMedia] = [
            .bare(id: 1, started: "2026-11-29T08:00:00Z"), .bare(id: 3, started: "2026-11-29T12:00:00Z"),
            .bare(id: 2, started: "2026-11-29T12:00:00Z"),
        ]
        let whens = lines(RecentOutput.table(media, timeZone: utc, width: 100)).dropFirst().map { $0.prefix(16) }
        #expect(whens == ["2026-11-29 12:00", "2026-11-29 12:00", "2026-11-29 08:00"])
        let ids = RecentOutput.jsonLines(media).split(separator: "\n").map { $0.prefix(8) }
        #expect(ids == [#"{"id":3,"#, #"{"id":2,"#, #"{"id":1,"#])
    }

    @Test func unknownValuesShowAsDashes() {
        let table = RecentOutput.table([.bare(id: 1, started: "2026-11-29T08:00:00Z")], timeZone: utc, width: 100)
        #expect(lines(table)[1] == "2026-11-29 08:00  -      -       -      -")
    }

    @Test func theAppColumnFallsBackToTheAppsName() {
        var media = GenericMedia.sample()
        media.appID = nil
        #expect(lines(RecentOutput.table([media], timeZone: utc, width: 100))[1].hasSuffix("  mpv Media Player"))
    }

    @Test func anEmptyRangeSaysSo() {
        #expect(RecentOutput.table([], timeZone: utc, width: 100) == "No media recorded in that range.\n")
    }

    @Test func wideCharactersAndEmojiKeepColumnsAligned() {
        let media = [
            GenericMedia(id: 2, title: "群青 🎵", artist: "YOASOBI", album: "THE BOOK", appID: "spotify",
                         date: instant("2026-11-29T12:00:00Z")),
            GenericMedia(id: 1, title: "Jóga", artist: "Björk", album: "Homogenic", appID: "mpv",
                         date: instant("2026-11-29T11:00:00Z")),
        ]
        let rows = lines(RecentOutput.table(media, timeZone: utc, width: 100))
        // The artist column starts at the same display column in every row.
        func column(of text: String, in row: String) -> Int? {
            row.range(of: text).map { row[..<$0.lowerBound].terminalColumns }
        }
        #expect(column(of: "ARTIST", in: rows[0]) == 27)
        #expect(column(of: "YOASOBI", in: rows[1]) == 27)
        #expect(column(of: "Björk", in: rows[2]) == 27)
        #expect(rows[1] == "2026-11-29 12:00  群青 🎵  YOASOBI  THE BOOK   spotify")
    }

    @Test func longFieldsAreCutWithAnEllipsisToFitTheWidth() {
        var media = GenericMedia.sample()
        media.title = String(repeating: "Very long title ", count: 20)
        media.album = String(repeating: "Endless album ", count: 20)
        for width in [60, 80, 100, 140] {
            let rows = lines(RecentOutput.table([media], timeZone: utc, width: width))
            #expect(rows.allSatisfy { $0.terminalColumns <= width }, "width \(width): \(rows)")
            #expect(rows[1].contains("…"))
            #expect(rows[1].hasSuffix("  mpv"))
        }
    }

    @Test func theLongestColumnIsCutFirst() {
        var media = GenericMedia.sample()
        media.title = String(repeating: "x", count: 80)
        let rows = lines(RecentOutput.table([media], timeZone: utc, width: 90))
        #expect(rows[1].contains("Massive Attack  Mezzanine  mpv"))
        #expect(rows[1].terminalColumns == 90)
    }

    @Test func aNarrowTerminalStillShowsEveryColumnsHeader() {
        var media = GenericMedia.sample()
        media.title = String(repeating: "x", count: 80)
        let rows = lines(RecentOutput.table([media], timeZone: utc, width: 20))
        #expect(rows[0] == "WHEN              TITLE  ARTIST  ALBUM  APP")
    }

    @Test func controlCharactersCannotBreakARow() {
        var media = GenericMedia.sample()
        media.title = "Line\none\ttab\u{1B}[31m"
        let table = RecentOutput.table([media], timeZone: utc, width: 100)
        #expect(lines(table).count == 2)
        #expect(!table.contains("\u{1B}"))
        #expect(lines(table)[1].contains("Line one tab [31m"))
    }
}
