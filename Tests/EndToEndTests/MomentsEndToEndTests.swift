import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// Issue 19 on a real broker: moments over the bus, through the client and broker-ctl, shaped by
/// what the person decided (opt-outs, purges), with ids that survive a restart.
@Suite(.serialized) struct MomentsEndToEndTests {
    static let minute: TimeInterval = 60

    /// 10:00 UTC today, or yesterday when that is less than four hours ago: listens from there fit
    /// in one listening day (which begins at 04:00) and are in the past. The brokers run in UTC.
    static var morning: Date {
        let day: TimeInterval = 86_400
        let now = Date().timeIntervalSince1970
        var ten = (now / day).rounded(.down) * day + 10 * 3600
        if ten > now - 4 * 3600 { ten -= day }
        return Date(timeIntervalSince1970: ten)
    }

    static let utc = ["TZ": "UTC"]

    /// Donates an album heard track after track from `start`, four minutes each.
    static func donateAlbum(_ client: MediaBrokerClient, app: String, album: String, artist: String, tracks: Int, from start: Date) async throws {
        for index in 0..<tracks {
            _ = try await client.donate(Donation(
                appID: app, title: "\(album) \(index + 1)", artists: [artist], album: album,
                started: start.addingTimeInterval(Double(index) * 4 * minute), length: .seconds(240), listened: .seconds(240)))
        }
    }

    @Test("listens become moments: album titles, newest first, assets by id, paging, and ids that survive a restart")
    func momentsOverTheBus() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, environment: Self.utc)
        let client = try broker.client()
        let morning = Self.morning
        try await Self.donateAlbum(client, app: "org.example.Player", album: "Mezzanine", artist: "Massive Attack", tracks: 3, from: morning)
        try await Self.donateAlbum(client, app: "org.example.Other", album: "Dummy", artist: "Portishead", tracks: 2,
                                   from: morning.addingTimeInterval(90 * Self.minute))
        let moments = try await client.moments()
        #expect(moments.map(\.title) == ["Dummy — Portishead", "Mezzanine — Massive Attack"])
        #expect(moments.map(\.titleRule) == [.album, .album] && moments.map(\.count) == [2, 3])
        let newest = try #require(moments.first)
        let assets = try await client.media(ids: newest.assetIDs)
        #expect(assets.map(\.title) == ["Dummy 1", "Dummy 2"] && assets.allSatisfy { $0.summary?.contains("Portishead") == true })
        #expect(try await client.media(ids: [999_999] + newest.assetIDs.prefix(1)).map(\.id) == Array(newest.assetIDs.prefix(1)))
        let page = try await client.moments(limit: 1, before: newest.id)
        #expect(page.map(\.id) == [moments[1].id])

        #expect(try broker.stop() == .exited(0))
        let restarted = try RunningBroker(bus: bus, data: broker.data, environment: Self.utc)
        #expect(try await restarted.client().moments().map(\.id) == moments.map(\.id))
        #expect(try restarted.stop() == .exited(0))
    }

    @Test("On this day (issue 35): the same date a year and two years ago, nearest first, never today's")
    func onThisDay() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, environment: Self.utc)
        let client = try broker.client()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        try await client.setRetentionDays(0)  // kept for ever: listens from years ago may be donated
        let morning = Self.morning
        let lastYear = try #require(calendar.date(byAdding: .year, value: -1, to: morning))
        let twoYearsAgo = try #require(calendar.date(byAdding: .year, value: -2, to: morning))
        try await Self.donateAlbum(client, app: "org.example.Player", album: "Today", artist: "A", tracks: 2, from: morning)
        try await Self.donateAlbum(client, app: "org.example.Player", album: "Last Year", artist: "B", tracks: 2, from: lastYear)
        try await Self.donateAlbum(client, app: "org.example.Player", album: "Day After", artist: "C", tracks: 2,
                                   from: lastYear.addingTimeInterval(86_400))
        try await Self.donateAlbum(client, app: "org.example.Player", album: "Long Ago", artist: "D", tracks: 2, from: twoYearsAgo)
        let earlier = try await client.moments(onThisDay: morning)
        #expect(earlier.map(\.album) == ["Last Year", "Long Ago"])
        await #expect(throws: MediaBrokerError.self) { try await client.moments(since: morning, onThisDay: morning) }
        #expect(try broker.stop() == .exited(0))
    }

    /// Donates podcast listens as a player that names their kind does (the client's `Donation`
    /// has no kind): `episodes` heard one after another, four minutes each, the show as album.
    static func donateEpisodes(_ bus: PrivateBus, show: String, episodes: [String], from start: Date) async throws {
        let connection = try BusConnection.connect(to: bus.address)
        defer { connection.close() }
        for (index, episode) in episodes.enumerated() {
            let started = Int64(start.addingTimeInterval(Double(index) * 4 * minute).timeIntervalSince1970 * 1_000_000)
            _ = try await connection.call(MethodCall(
                destination: "org.mediabroker.MediaBroker1", path: "/org/mediabroker/MediaBroker1",
                interface: "org.mediabroker.MediaBroker1", member: "Donate",
                arguments: [.vardict(["app_id": .string("org.example.Podcasts"), "title": .string(episode), "album": .string(show),
                                      "kind": .string("podcast"), "started": .int64(started), "length": .int64(240_000_000),
                                      "listened": .int64(240_000_000)])]))
        }
    }

    @Test("a show's moment says how many episodes it holds (episode_count, version 10); an album's has no such key")
    func episodeCount() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, environment: Self.utc)
        let client = try broker.client()
        let morning = Self.morning
        try await Self.donateEpisodes(bus, show: "The Sea Show", episodes: ["Tides", "Reefs", "Tides"], from: morning)
        try await Self.donateAlbum(client, app: "org.example.Player", album: "Mezzanine", artist: "Massive Attack", tracks: 2,
                                   from: morning.addingTimeInterval(3 * 3600))
        let moments = try await client.moments()
        #expect(moments.map(\.titleRule) == [.album, .show])
        #expect(moments.map(\.episodeCount) == [nil, 2] && moments.map(\.count) == [2, 3])
        #expect(moments.last?.show == "The Sea Show" && moments.last?.title == "The Sea Show · 2 episodes")
        try broker.stop()
    }

    @Test("an opted-out app's listens leave its moments; a purged range shrinks or removes them")
    func privacyShapesMoments() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, environment: Self.utc)
        let client = try broker.client()
        let start = Self.morning
        try await Self.donateAlbum(client, app: "org.example.Player", album: "Mezzanine", artist: "Massive Attack", tracks: 3, from: start)
        try await Self.donateAlbum(client, app: "org.example.Secret", album: "Hidden", artist: "Nobody", tracks: 2,
                                   from: start.addingTimeInterval(12 * Self.minute))
        #expect(try await client.moments().map(\.count) == [5])
        try await client.setAppOptedOut("org.example.Secret", true)
        let visible = try await client.moments()
        #expect(visible.map(\.count) == [3] && visible.allSatisfy { $0.appIDs == ["org.example.Player"] })
        _ = try await client.purge(.range(since: start.addingTimeInterval(7 * Self.minute), until: nil))
        #expect(try await client.moments().map(\.count) == [2])
        _ = try await client.purge(.all)
        #expect(try await client.moments().isEmpty)
        try await client.setMediaEnabled(false)
        #expect(try await client.moments().isEmpty)
        try broker.stop()
    }

    @Test("broker-ctl moments prints a block per moment, and --json what the bus said")
    func brokerCtl() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, environment: Self.utc)
        let client = try broker.client()
        try await Self.donateAlbum(client, app: "org.example.Player", album: "Mezzanine", artist: "Massive Attack", tracks: 3,
                                   from: Self.morning)
        let human = try broker.brokerCtl(["moments"])
        #expect(human.status == .exited(0), "\(human.standardError)")
        #expect(human.standardOutput.hasPrefix("Mezzanine — Massive Attack\n") && human.standardOutput.contains("Mezzanine 3"))
        let json = try broker.brokerCtl(["moments", "--json", "--gap", "10m"])
        #expect(json.status == .exited(0), "\(json.standardError)")
        let lines = json.standardOutput.split(separator: "\n")
        try #require(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let moment = try #require(try await client.moments(gap: .seconds(600)).first)
        #expect(object["id"] as? String == moment.id && object["title"] as? String == moment.title)
        #expect((object["asset_ids"] as? [NSNumber])?.map(\.int64Value) == moment.assetIDs)
        #expect((object["assets"] as? [[String: Any]])?.count == 3)
        #expect(try broker.brokerCtl(["moments", "--gap", "5s"]).status == .exited(64))
        try broker.stop()
    }
}
