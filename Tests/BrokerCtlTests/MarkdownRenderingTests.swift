import Foundation
import MediaDonationClient
import Testing
import TestSupport
@testable import broker_ctl

/// The Markdown read by a real Markdown implementation, Debian's python3-markdown, as a journal
/// would render it: its HTML has a heading per day and per moment, an item per listen, the art
/// as images, and nothing a hostile title tried to inject.
@Suite struct MarkdownRenderingTests {
    /// One element of the rendered HTML, in document order, with the text inside it
    /// (character references decoded).
    struct Element {
        var tag: String
        var attributes: [String: String]
        var text: String
    }

    /// Renders `markdown` with python3-markdown and lists the HTML's elements.
    static let renderer = """
        import html.parser
        import json
        import sys
        import markdown

        class Elements(html.parser.HTMLParser):
            def __init__(self):
                super().__init__()
                self.elements = []
                self.open = []

            def handle_starttag(self, tag, attrs):
                element = {"tag": tag, "attributes": {name: value or "" for name, value in attrs}, "text": ""}
                self.elements.append(element)
                if tag not in ("img", "br", "hr"):
                    self.open.append(element)

            def handle_endtag(self, tag):
                while self.open and self.open.pop()["tag"] != tag:
                    pass

            def handle_data(self, data):
                for element in self.open:
                    element["text"] += data

        parser = Elements()
        parser.feed(markdown.markdown(sys.argv[1]))
        print(json.dumps(parser.elements))
        """

    static func render(_ markdown: String) throws -> [Element] {
        let run = try ChildProcess.run("/usr/bin/python3", arguments: ["-c", renderer, markdown])
        guard run.status.isSuccess else { throw TestSupportError("python3-markdown failed: \(run.standardError)") }
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [[String: Any]])
        return objects.map { object in
            Element(
                tag: object["tag"] as? String ?? "", attributes: object["attributes"] as? [String: String] ?? [:],
                text: object["text"] as? String ?? "")
        }
    }

    /// Each day heading's text with the texts of the moment headings and list items under it.
    static func outline(_ elements: [Element]) -> [String: [String]] {
        var outline: [String: [String]] = [:]
        var day = ""
        for element in elements {
            switch element.tag {
            case "h2": day = element.text
            case "h3", "li": outline[day, default: []].append(element.text)
            default: break
            }
        }
        return outline
    }

    @Test func aMomentRendersAsHeadingsAListAndItsArt() async throws {
        let listens = [
            DiaryFixtures.listen(1, "2026-11-29T13:00:00Z", art: "/home/ana/My Art/Mezzanine (1998).jpg"),
            DiaryFixtures.listen(2, "2026-11-29T13:05:00Z", title: "Angel"),
        ]
        let broker = FakeBroker(media: .success(listens), moments: [DiaryFixtures.moment("Mezzanine — Massive Attack", of: listens)])
        let run = await runBrokerCtl(["moments", "--format", "markdown"], broker: broker)
        let elements = try Self.render(run.standardOutput)
        #expect(elements.map(\.tag) == ["h2", "h3", "p", "img", "ul", "li", "li"])
        #expect(elements.first { $0.tag == "h3" }?.text == "Mezzanine — Massive Attack · 13:00–13:10")
        #expect(elements.filter { $0.tag == "li" }.map(\.text) == [
            "13:00 Teardrop — Massive Attack · Mezzanine · mpv", "13:05 Angel — Massive Attack · Mezzanine · mpv",
        ])
        let image = try #require(elements.first { $0.tag == "img" })
        #expect(image.attributes["src"] == "/home/ana/My Art/Mezzanine (1998).jpg" && image.attributes["alt"] == "Mezzanine")
    }

    @Test func aHostileTitleInjectsNoLinkHTMLHeadingOrFormatting() async throws {
        let art = "/tmp/a >b\\ (c) [d]_*.jpg"
        let listens = [DiaryFixtures.listen(1, "2026-11-29T13:00:00Z", title: DiaryFixtures.hostileTitle, art: art)]
        let broker = FakeBroker(media: .success(listens), moments: [DiaryFixtures.moment(DiaryFixtures.hostileTitle, of: listens)])
        for command in ["moments", "recent"] {
            let run = await runBrokerCtl([command, "--format", "markdown"], broker: broker)
            let elements = try Self.render(run.standardOutput)
            let expected = command == "moments" ? ["h2", "h3", "p", "img", "ul", "li"] : ["h2", "ul", "li", "img"]
            #expect(elements.map(\.tag) == expected, "\(command): \(run.standardOutput)")
            let title = DiaryFixtures.hostileTitle.replacingOccurrences(of: "\n", with: " ")
            #expect(elements.first { $0.tag == "li" }?.text.hasPrefix("13:00 " + title + " — Massive Attack") == true, "\(command)")
            if command == "moments" {
                #expect(elements.first { $0.tag == "h3" }?.text == title + " · 13:00–13:05")
            }
            #expect(elements.first { $0.tag == "img" }?.attributes["src"] == art, "\(command)")
        }
    }

    @Test(arguments: [
        (DiaryFixtures.losAngeles, [
            "2026-12-01": ["Dawn · 03:30–03:35", "03:30 Dawn track — Massive Attack · Mezzanine · mpv"],
            "2026-12-02": [
                "Afternoon · 15:30–15:35", "15:30 Afternoon track — Massive Attack · Mezzanine · mpv",
                "Evening · 18:30–18:35", "18:30 Evening track — Massive Attack · Mezzanine · mpv",
            ],
        ]),
        (DiaryFixtures.auckland, [
            "2026-12-02": ["Dawn · 00:30–00:35", "00:30 Dawn track — Massive Attack · Mezzanine · mpv"],
            "2026-12-03": [
                "Afternoon · 12:30–12:35", "12:30 Afternoon track — Massive Attack · Mezzanine · mpv",
                "Evening · 15:30–15:35", "15:30 Evening track — Massive Attack · Mezzanine · mpv",
            ],
        ]),
    ])
    func momentsNearMidnightUTCRenderUnderTheirLocalDay(_ zone: TimeZone, _ days: [String: [String]]) async throws {
        let run = await runBrokerCtl(["moments", "--format", "markdown"], broker: DiaryFixtures.nearMidnightBroker(), timeZone: zone)
        #expect(Self.outline(try Self.render(run.standardOutput)) == days, "\(zone.identifier)")
    }
}
