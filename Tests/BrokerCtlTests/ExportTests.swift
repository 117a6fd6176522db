import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

@Suite struct ExportTests {
    /// 10,000 listens a minute apart with every kind of gap: no artist (every 97th), two artists
    /// (every 5th), no album (every 3rd), no length (every 7th), no app name (every 11th), and
    /// titles that need escaping.
    static let history: [GenericMedia] = (1...10_000).map { number in
        let id = Int64(number)
        let artists = number % 97 == 0 ? [] : number % 5 == 0 ? ["Artist \(number % 13)", "Guest 東京"] : ["Artist \(number % 13)"]
        return GenericMedia(
            id: id, title: number % 10 == 0 ? "Say \"Hi\" \\ \(number) 🎵\n" : "Track \(number)", artists: artists,
            album: number % 3 == 0 ? nil : "Album \(number % 50)", appID: number % 2 == 0 ? "mpv" : "spotify",
            appName: number % 11 == 0 ? nil : (number % 2 == 0 ? "mpv Media Player" : "Spotify"),
            date: Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 60 + 0.25),
            length: number % 7 == 0 ? nil : .milliseconds(200_000 + Int64(number)),
            kind: .music, source: .mpris)
    }

    private static let withoutArtist = history.filter { $0.artists.isEmpty }.count

    private func parsed(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func parsesEveryOption() throws {
        #expect(try parse(["export"], as: ExportCommand.self) == ExportCommand())
        #expect(
            try parse(["export", "--since", "1w", "--until=today", "--app", "mpv", "--format", "listenbrainz"], as: ExportCommand.self)
                == ExportCommand(
                    since: fixedNow.addingTimeInterval(-604_800), until: instant("2026-11-29T00:00:00Z"), appID: "mpv",
                    format: .listenbrainz))
        #expect(try parse(["export", "--format=json"], as: ExportCommand.self).format == .json)
    }

    @Test(arguments: [
        (["export", "--format", "csv"], "--format must be json or listenbrainz, not 'csv'"),
        (["export", "--format"], "missing value for '--format json|listenbrainz'"),
        (["export", "--since", "today", "--until", "yesterday"], "--since must be earlier than --until"),
        (["export", "--app="], "--app needs an app id, such as mpv"),
        (["export", "--json"], "unknown option '--json'"),
        (["export", "out.json"], "unexpected argument 'out.json'"),
    ] as [([String], String)])
    func mistakesAreUsageErrors(_ words: [String], message: String) {
        #expect(usageError(words) == UsageError(message, subcommand: "export"))
    }

    @Test func tenThousandListensAreOneValidJSONArrayWrittenPageByPage() async throws {
        let broker = FakeBroker(media: .success(Self.history))
        let output = CapturedText()
        let run = await runBrokerCtl(["export"], broker: broker, output: output)
        #expect(run.exitCode == 0)
        #expect(run.standardError == "")

        let array = try #require(try parsed(run.standardOutput) as? [[String: Any]])
        #expect(array.count == 10_000)
        #expect(array.map { $0["id"] as? Int } == (1...10_000).reversed().map { $0 })
        // Each object is exactly what `recent --json` prints for it.
        let newestFirst = Self.history.reversed()
        for (object, item) in zip(output.text.split(separator: "\n").dropFirst().dropLast(), newestFirst) {
            let expected = RecentOutput.json(for: item).serialized
            #expect(object == expected || object == expected + ",")
        }
        let tenth = try #require(array.first { $0["id"] as? Int == 10 })
        #expect(tenth["title"] as? String == "Say \"Hi\" \\ 10 🎵\n")
        #expect(tenth["artists"] as? [String] == ["Artist 10", "Guest 東京"])

        // Pages of 1000, each continuing after the last id of the one before; one write per page.
        #expect(broker.recentRequests.count == 11)
        #expect(broker.recentRequests.allSatisfy { $0.limit == 1000 && $0.since == nil && $0.until == nil && $0.appID == nil })
        #expect(broker.recentRequests.map(\.before) == [nil] + stride(from: 9001, through: 1, by: -1000).map { Int64($0) })
        #expect(output.writes.count == 12)
        #expect(output.writes.first == "[")
        #expect(output.writes.last == "\n]\n")
    }

    @Test func theFilterIsPassedOnEveryPage() async throws {
        let broker = FakeBroker(media: .success(Self.history))
        let run = await runBrokerCtl(
            ["export", "--since", "2023-11-16T07:33:20Z", "--until", "2023-11-19T02:13:20Z", "--app", "mpv"], broker: broker)
        #expect(run.exitCode == 0)
        let array = try #require(try parsed(run.standardOutput) as? [[String: Any]])
        // Listens 2000…5999 started in the range (since inclusive, until exclusive); the even ones are mpv's.
        #expect(array.map { $0["id"] as? Int } == stride(from: 5998, through: 2000, by: -2).map { $0 })
        #expect(broker.recentRequests.count == 3)
        #expect(
            broker.recentRequests.allSatisfy {
                $0.appID == "mpv" && $0.since == instant("2023-11-16T07:33:20Z") && $0.until == instant("2023-11-19T02:13:20Z")
            })
    }

    @Test func tenThousandListensAreAListenBrainzImportFieldByField() async throws {
        let broker = FakeBroker(media: .success(Self.history))
        let run = await runBrokerCtl(["export", "--format", "listenbrainz"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(
            run.standardError
                == "broker-ctl: left out \(Self.withoutArtist) listens without an artist or a title, which ListenBrainz does not accept\n")

        let document = try #require(try parsed(run.standardOutput) as? [String: Any])
        #expect(document.keys.sorted() == ["listen_type", "payload"])
        #expect(document["listen_type"] as? String == "import")
        let payload = try #require(document["payload"] as? [[String: Any]])
        #expect(payload.count == 10_000 - Self.withoutArtist)

        // listened_at is written as an integer, never with a fraction or exponent.
        for number in run.standardOutput.components(separatedBy: #""listened_at":"#).dropFirst() {
            let digits = number.prefix { $0 != "," }
            #expect(!digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber })
        }
        let expected = Self.history.reversed().filter { !$0.artists.isEmpty }
        for (listen, item) in zip(payload, expected) {
            #expect(listen.keys.sorted() == ["listened_at", "track_metadata"])
            #expect(listen["listened_at"] as? Int == Int(item.date.timeIntervalSince1970.rounded(.down)))
            let metadata = try #require(listen["track_metadata"] as? [String: Any])
            let artistName = try #require(metadata["artist_name"] as? String)
            let trackName = try #require(metadata["track_name"] as? String)
            #expect(!artistName.isEmpty && !trackName.isEmpty)
            #expect(artistName == item.artists.joined(separator: ", "))
            #expect(trackName == item.title)
            #expect(metadata["release_name"] as? String == item.album)
            let info = try #require(metadata["additional_info"] as? [String: Any])
            #expect(info["duration_ms"] as? Int == item.length.map { Int($0 / .milliseconds(1)) })
            #expect(info["media_player"] as? String == (item.appName ?? item.appID))
            #expect(info["submission_client"] as? String == "MediaBroker")
            #expect(info["submission_client_version"] as? String == BrokerCtlVersion.current)
            #expect(info["artist_names"] as? [String] == item.artists)
            #expect(Set(info.keys).isSubset(of: ["duration_ms", "media_player", "submission_client", "submission_client_version", "artist_names"]))
        }
    }

    @Test func oneListenExactly() throws {
        let listen = try #require(try? ListenBrainz.listen(for: .sample()).get())
        #expect(
            listen.serialized
                == #"{"listened_at":1795957200,"track_metadata":{"artist_name":"Massive Attack","track_name":"Teardrop","#
                + #""release_name":"Mezzanine","additional_info":{"duration_ms":330000,"media_player":"mpv Media Player","#
                + #""submission_client":"MediaBroker","submission_client_version":"\#(BrokerCtlVersion.current)","#
                + #""artist_names":["Massive Attack"]}}}"#)
    }

    private func refusal(_ item: GenericMedia) -> ListenBrainz.Refusal? {
        guard case .failure(let refusal) = ListenBrainz.listen(for: item) else { return nil }
        return refusal
    }

    @Test func whatListenBrainzRefusesIsLeftOut() {
        var noTitle = GenericMedia.sample()
        noTitle.title = nil
        #expect(refusal(noTitle) == .missingArtistOrTitle)
        let blankArtist = GenericMedia(id: 1, title: "T", artist: " \u{0} ", date: fixedNow)
        #expect(refusal(blankArtist) == .missingArtistOrTitle)
        let ancient = GenericMedia(id: 1, title: "T", artists: ["A"], date: instant("2002-09-30T23:59:59Z"))
        #expect(refusal(ancient) == .beforeListenBrainzMinimum)
        let earliest = GenericMedia(id: 1, title: "T", artists: ["A"], date: instant("2002-10-01T00:00:00Z"))
        #expect(refusal(earliest) == nil)
    }

    @Test func anArtistWithoutTheListIsItsOwnList() throws {
        let item = GenericMedia(id: 1, title: "T", artist: "Solo", date: fixedNow, length: .zero)
        let listen = try #require(try? ListenBrainz.listen(for: item).get())
        #expect(listen.serialized.contains(#""artist_names":["Solo"]"#))
        #expect(!listen.serialized.contains("duration_ms"))
        #expect(!listen.serialized.contains("media_player"))
        #expect(!listen.serialized.contains("release_name"))
    }

    @Test func nulCharactersAreDropped() throws {
        let item = GenericMedia(id: 1, title: "Te\u{0}ardrop", artists: ["Massive\u{0} Attack"], date: fixedNow)
        let listen = try #require(try? ListenBrainz.listen(for: item).get())
        #expect(listen.serialized.contains(#""artist_name":"Massive Attack","track_name":"Teardrop""#))
    }

    @Test func skippedReportsCountEachReason() async {
        let broker = FakeBroker(media: .success([
            .sample(id: 3), .bare(id: 2, started: "2026-11-29T10:00:00Z"),
            GenericMedia(id: 1, title: "Old", artists: ["A"], date: instant("1999-01-01T00:00:00Z")),
        ]))
        let run = await runBrokerCtl(["export", "--format", "listenbrainz"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(
            run.standardError
                == "broker-ctl: left out 1 listen without an artist or a title and 1 listen from before 2002-10-01, which ListenBrainz does not accept\n")
    }

    @Test func anEmptyHistoryIsStillAValidDocument() async throws {
        let json = await runBrokerCtl(["export"])
        #expect(json.standardOutput == "[\n]\n")
        #expect(try parsed(json.standardOutput) as? [Any] != nil)
        let listenBrainz = await runBrokerCtl(["export", "--format=listenbrainz"])
        let document = try #require(try parsed(listenBrainz.standardOutput) as? [String: Any])
        #expect((document["payload"] as? [Any])?.isEmpty == true)
    }

    @Test func aBrokerThatFailsAtOnceLeavesStandardOutputEmpty() async {
        let run = await runBrokerCtl(["export"], broker: FakeBroker(media: .failure(.brokerNotRunning)))
        #expect(run.exitCode == 1)
        #expect(run.standardOutput == "")
        #expect(run.standardError.hasPrefix("broker-ctl: the media broker is not running"))
    }
}
