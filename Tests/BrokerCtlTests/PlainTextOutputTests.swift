import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

/// `--format text`: the structure of the Markdown, without its syntax, for plain-text journals.
@Suite struct PlainTextOutputTests {
    @Test func momentsAreTheMarkdownsStructureInPlainText() async {
        let listens = [
            DiaryFixtures.listen(1, "2026-11-29T13:00:00Z", title: "Tear*drop*\nTwo", art: "/art/Mezzanine cover.jpg"),
            DiaryFixtures.listen(2, "2026-11-29T13:05:30Z", title: "Angel"),
        ]
        let later = [DiaryFixtures.listen(3, "2026-11-30T20:00:00Z", title: "Lazarus")]
        let broker = FakeBroker(
            media: .success(listens + later),
            moments: [DiaryFixtures.moment("Late", of: later), DiaryFixtures.moment("Mezzanine — Massive Attack", of: listens)])
        let run = await runBrokerCtl(["moments", "--format", "text"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == """
            2026-11-29

            Mezzanine — Massive Attack · 13:00–13:10
              Art: /art/Mezzanine cover.jpg
              13:00 Tear*drop* Two — Massive Attack · Mezzanine · mpv
              13:05 Angel — Massive Attack · Mezzanine · mpv

            2026-11-30

            Late · 20:00–20:05
              20:00 Lazarus — Massive Attack · Mezzanine · mpv

            """)
    }

    @Test func recentShowsEachListenWithItsArtOnce() async {
        let listens = [
            DiaryFixtures.listen(1, "2026-11-29T13:00:00Z", art: "/art/a.jpg"),
            DiaryFixtures.listen(2, "2026-11-29T13:05:00Z", title: "Angel", art: "/art/a.jpg"),
        ]
        let run = await runBrokerCtl(["recent", "--format", "text"], broker: FakeBroker(media: .success(listens)))
        #expect(run.standardOutput == """
            2026-11-29

              13:00 Teardrop — Massive Attack · Mezzanine · mpv
                    Art: /art/a.jpg
              13:05 Angel — Massive Attack · Mezzanine · mpv

            """)
        let withoutArt = await runBrokerCtl(["recent", "--format", "text", "--no-art"], broker: FakeBroker(media: .success(listens)))
        #expect(!withoutArt.standardOutput.contains("Art:"))
    }
}
