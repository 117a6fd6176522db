import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

/// `--format markdown` for `moments` and `recent`: days and moments as headings, listens as list
/// items, art as images of local files, and words from players escaped.
@Suite struct MarkdownOutputTests {
    static let artPath = "/home/ana/Art/Mezzanine (1998) [remaster] cover.jpg"
    static let album = [
        DiaryFixtures.listen(1, "2026-11-29T13:00:00Z", art: artPath),
        DiaryFixtures.listen(2, "2026-11-29T13:05:30Z", title: "Angel", art: artPath),
    ]
    static func broker() -> FakeBroker {
        FakeBroker(media: .success(album), moments: [DiaryFixtures.moment("Mezzanine — Massive Attack", of: album)])
    }

    @Test func aDayIsAHeadingAMomentAHeadingWithItsTimesItsArtAnImageAndItsListensAList() async {
        let run = await runBrokerCtl(["moments", "--format", "markdown"], broker: Self.broker())
        #expect(run.exitCode == 0 && run.standardError.isEmpty, "\(run.standardError)")
        #expect(run.standardOutput == """

            ## 2026-11-29

            ### Mezzanine — Massive Attack · 13:00–13:10

            ![Mezzanine](</home/ana/Art/Mezzanine (1998) [remaster] cover.jpg>)

            - 13:00 Teardrop — Massive Attack · Mezzanine · mpv
            - 13:05 Angel — Massive Attack · Mezzanine · mpv

            """)
    }

    @Test func noArtLeavesTheImageOut() async {
        let run = await runBrokerCtl(["moments", "--format=markdown", "--no-art"], broker: Self.broker())
        #expect(run.exitCode == 0)
        #expect(!run.standardOutput.contains("!["))
        #expect(run.standardOutput.contains("- 13:00 Teardrop"))
    }

    @Test func momentsReadForwardsLikeADiaryAndANightOutStaysOnTheDayItBegan() async {
        let run = await runBrokerCtl(["moments", "--format", "markdown"], broker: DiaryFixtures.nearMidnightBroker())
        let headings = run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(headings == [
            "## 2026-12-02", "### Dawn · 11:30–11:35", "### Afternoon · 23:30–23:35", "### Evening · 02:30–02:35",
        ].map { Substring($0) })
    }

    /// Dawn began at 03:30 on the 2nd in Los Angeles, before the day's 04:00: it ends the night of
    /// the 1st. In Auckland the same instants are a day later.
    @Test(arguments: [
        (DiaryFixtures.losAngeles, [
            "## 2026-12-01", "### Dawn · 03:30–03:35",
            "## 2026-12-02", "### Afternoon · 15:30–15:35", "### Evening · 18:30–18:35",
        ]),
        (DiaryFixtures.auckland, [
            "## 2026-12-02", "### Dawn · 00:30–00:35",
            "## 2026-12-03", "### Afternoon · 12:30–12:35", "### Evening · 15:30–15:35",
        ]),
    ])
    func daysAreLocalListeningDays(_ zone: TimeZone, _ headings: [String]) async {
        let run = await runBrokerCtl(["moments", "--format", "markdown"], broker: DiaryFixtures.nearMidnightBroker(), timeZone: zone)
        #expect(run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("#") }.map(String.init) == headings, "\(zone.identifier)")
    }

    @Test func recentIsDaysOfListensWithTheArtOnceForListensInARowWithTheSame() async {
        let listens = Self.album + [DiaryFixtures.listen(3, "2026-11-29T13:11:00Z", title: "Lazarus", art: "/art/other.png")]
        let run = await runBrokerCtl(["recent", "--format", "markdown"], broker: FakeBroker(media: .success(listens)))
        #expect(run.standardOutput == """

            ## 2026-11-29

            - 13:00 Teardrop — Massive Attack · Mezzanine · mpv
              ![Mezzanine](</home/ana/Art/Mezzanine (1998) [remaster] cover.jpg>)
            - 13:05 Angel — Massive Attack · Mezzanine · mpv
            - 13:11 Lazarus — Massive Attack · Mezzanine · mpv
              ![Mezzanine](</art/other.png>)

            """)
    }

    @Test func recentGroupsListensByLocalListeningDay() async {
        let run = await runBrokerCtl(
            ["recent", "--format", "markdown", "--no-art"], broker: DiaryFixtures.nearMidnightBroker(), timeZone: DiaryFixtures.losAngeles)
        #expect(run.standardOutput.split(separator: "\n").filter { !$0.isEmpty } == [
            "## 2026-12-01", "- 03:30 Dawn track — Massive Attack · Mezzanine · mpv",
            "## 2026-12-02", "- 15:30 Afternoon track — Massive Attack · Mezzanine · mpv",
            "- 18:30 Evening track — Massive Attack · Mezzanine · mpv",
        ].map { Substring($0) })
    }

    @Test func whatIsUnknownIsLeftOutOfAListen() async {
        let run = await runBrokerCtl(
            ["recent", "--format", "markdown"], broker: FakeBroker(media: .success([.bare(id: 1, started: "2026-11-29T13:00:00Z")])))
        #expect(run.standardOutput.contains("\n- 13:00 Untitled\n"))
    }

    @Test func aHostileTitleStaysOneEscapedLine() async throws {
        let listens = [DiaryFixtures.listen(1, "2026-11-29T13:00:00Z", title: DiaryFixtures.hostileTitle)]
        let moment = DiaryFixtures.moment(DiaryFixtures.hostileTitle, of: listens)
        let run = await runBrokerCtl(["moments", "--format", "markdown"], broker: FakeBroker(media: .success(listens), moments: [moment]))
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.count == 3, "\(lines)")
        let heading = try #require(lines.first { $0.hasPrefix("### ") })
        #expect(String(heading) == "### " + MarkdownEscaping.literal(DiaryFixtures.hostileTitle) + " · 13:00–13:05")
        for raw in ["<script", "<a ", "[link]", "*bold*", "_it_", "`code`", "~~", "%%", "$x$", "==", " #tag"] {
            #expect(!run.standardOutput.contains(raw), "\(raw) left unescaped")
        }
    }

    @Test(arguments: [
        ("*NSYNC", "\\*NSYNC"), ("Guns N' Roses", "Guns N' Roses"), ("R&B & Soul", "R&B & Soul"), ("&amp; &#60;", "&amp;amp; &amp;\\#60;"),
        ("<b>", "&lt;b&gt;"), ("[a](b)", "\\[a\\](b)"), ("# 1", "\\# 1"), ("a|b", "a&#124;b"), ("100% %%x", "100% &#37;&#37;x"),
        ("a = b == c", "a = b &#61;&#61; c"), ("$uicideboy$", "&#36;uicideboy&#36;"), ("snake_case", "snake\\_case"),
        ("back\\slash `tick`", "back\\\\slash \\`tick\\`"), ("two\nlines\ttab", "two lines tab"),
    ])
    func escapingKeepsTextLiteralAndReadable(_ text: String, _ escaped: String) {
        #expect(MarkdownEscaping.literal(text) == escaped)
    }

    @Test func anImageDestinationKeepsSpacesParenthesesAndEscapesItsBrackets() {
        #expect(MarkdownEscaping.image(path: "/a b/(c)\\d>e.jpg", description: "[x]") == "![\\[x\\]](</a b/(c)\\\\d\\>e.jpg>)")
        #expect(MarkdownEscaping.image(path: "/a\nb.jpg", description: "x") == nil)
        #expect(MarkdownEscaping.image(path: "/a<b.jpg", description: "x") == nil)
        #expect(MarkdownEscaping.image(path: "", description: "x") == nil)
    }

    @Test func nothingInRangePrintsNothingAndSaysSoOnStandardError() async {
        for words in [["moments", "--format", "markdown"], ["recent", "--format", "text"]] {
            let run = await runBrokerCtl(words, broker: FakeBroker())
            #expect(run.exitCode == 0 && run.standardOutput.isEmpty, "\(words)")
            #expect(!run.standardError.isEmpty, "\(words)")
        }
    }

    @Test func jsonIsTheSameWithEitherSpelling() async {
        for command in ["moments", "recent"] {
            let json = await runBrokerCtl([command, "--json"], broker: Self.broker())
            for words in [["--format", "json"], ["--format=json", "--json"]] {
                let format = await runBrokerCtl([command] + words, broker: Self.broker())
                #expect(format.exitCode == 0 && format.standardOutput == json.standardOutput, "\(command) \(words)")
            }
        }
    }

    @Test func parsesTheFormatAndTheArt() throws {
        #expect(try parse(["moments", "--format", "text", "--no-art"], as: MomentsCommand.self).output == OutputStyle(format: .text, showsArt: false))
        #expect(try parse(["recent", "--format", "markdown"], as: RecentCommand.self).output == .markdown)
        #expect(try parse(["recent"], as: RecentCommand.self).output == .standard)
    }

    @Test(arguments: [
        ["--format", "html"], ["--format", "standard"], ["--format", "markdown", "--json"], ["--json", "--format=text"],
        ["--no-art"], ["--json", "--no-art"], ["--format", "json", "--no-art"],
    ])
    func aFormatItCannotPrintOrOptionsThatDisagreeAreAUsageError(_ words: [String]) {
        #expect(usageError(["moments"] + words) != nil, "moments \(words)")
        #expect(usageError(["recent"] + words) != nil, "recent \(words)")
    }
}
