import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

@Suite struct RecentJSONTests {
    /// Parses with Foundation's JSONSerialization: an independent check that the output is JSON.
    private func objects(_ text: String) throws -> [[String: Any]] {
        #expect(text.isEmpty || text.hasSuffix("\n"))
        return try text.split(separator: "\n").map { line in
            let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(parsed as? [String: Any])
        }
    }

    @Test func everyKnownFieldUsesTheContractsKeyAndUnits() throws {
        let line = RecentOutput.jsonLines([.sample()])
        #expect(
            line == #"{"id":1,"title":"Teardrop","artist":"Massive Attack","artists":["Massive Attack"],"#
                + #""album":"Mezzanine","app_id":"mpv","app_name":"mpv Media Player","#
                + #""app_icon":"/usr/share/icons/hicolor/scalable/apps/mpv.svg","#
                + #""started":1795957200000000,"started_iso":"2026-11-29T13:00:00Z","ended":1795957530000000,"#
                + #""listened":329500000,"length":330000000,"kind":"music","source":"mpris"}"# + "\n")
        let object = try #require(try objects(line).first)
        #expect(object["started"] as? Int64 == 1_795_957_200_000_000)
        #expect(object["artists"] as? [String] == ["Massive Attack"])
    }

    @Test func unknownFieldsAreLeftOutNotNull() throws {
        let line = RecentOutput.jsonLines([.bare(id: 7, started: "2026-11-29T08:00:00Z")])
        #expect(line == #"{"id":7,"started":1795939200000000,"started_iso":"2026-11-29T08:00:00Z"}"# + "\n")
        #expect(try objects(line).first?.keys.sorted() == ["id", "started", "started_iso"])
    }

    @Test func microsecondsSurviveTheTripThroughDate() {
        let started = Date(timeIntervalSince1970: 1_795_957_200.123456)
        let line = RecentOutput.jsonLines([GenericMedia(id: 1, date: started)])
        #expect(line.contains(#""started":1795957200123456,"#))
    }

    @Test func oneObjectPerLineNewestFirst() throws {
        let media: [GenericMedia] = [.sample(id: 1, started: "2026-11-29T10:00:00Z"), .sample(id: 2)]
        #expect(try objects(RecentOutput.jsonLines(media)).map { $0["id"] as? Int } == [2, 1])
    }

    @Test func noMediaIsNoLines() {
        #expect(RecentOutput.jsonLines([]) == "")
    }

    @Test(arguments: [
        "Björk — Jóga", "群青", "🎵👨‍👩‍👧🇯🇵", #"Say "Hi" \ back\slash"#, "tab\tnewline\ncr\r", "\u{0}\u{1}\u{1F}\u{7F}",
        "\u{2028}\u{2029}", "/slash/", String(repeating: "long ", count: 5000),
    ])
    func anyTitleRoundTripsThroughAJSONParser(_ title: String) throws {
        let line = RecentOutput.jsonLines([GenericMedia(id: 1, title: title, date: fixedNow)])
        #expect(line.split(separator: "\n").count == 1)
        #expect(try objects(line).first?["title"] as? String == title)
    }

    @Test func controlCharactersAreEscapedAsUnicodeEscapes() {
        #expect(JSONValue.quoted("a\u{0}b\u{1F}c\nd") == #""a\u0000b\u001Fc\u000Ad""#)
        #expect(JSONValue.quoted(#"q"b\"#) == #""q\"b\\""#)
        #expect(JSONValue.quoted("é🎵") == "\"é🎵\"")
    }

    @Test func anAbsurdLengthSaturatesInsteadOfCrashing() {
        let media = GenericMedia(id: 1, date: fixedNow, listened: .seconds(Int64.max), length: .seconds(Int64.min))
        let line = RecentOutput.jsonLines([media])
        #expect(line.contains(#""listened":9223372036854775807,"length":-9223372036854775808"#))
    }
}
