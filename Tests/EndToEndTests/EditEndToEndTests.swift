import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// Issue 34 §3 on real parts: `broker-ctl edit` corrects a kept listen, and every way out of the
/// broker — RecentMedia, MediaByID, Moments, the export and a subscriber — sees the correction;
/// `--undo` puts back the words first recorded.
@Suite(.serialized) struct EditEndToEndTests {
    @Test("a correction is seen by RecentMedia, MediaByID, Moments, the export and a subscriber; --undo restores the words first recorded")
    func correctionReachesEveryReader() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let client = try broker.client()
        let id = try await client.donate(Donation(appID: "org.example.Radio", title: "Teardorp", artists: ["Massive Atack"], album: "Mezanine",
                                                  started: Date().addingTimeInterval(-600), listened: .seconds(200)))

        let changed = Mailbox<String>()
        let subscriber = try BusConnection.connect(to: bus.address)
        defer { subscriber.close() }
        let token = try await subscriber.addMatch(MatchRule(interface: "org.mediabroker.MediaBroker1", member: "MediaChanged")) { message in
            if let title = try? message.arguments.first?.vardict()["title"]?.string() { changed.put(title) }
        }
        defer { token.cancel() }
        _ = try await subscriber.call(MethodCall(destination: "org.mediabroker.MediaBroker1", path: "/org/mediabroker/MediaBroker1",
                                                 interface: "org.mediabroker.MediaBroker1", member: "Subscribe"))

        let edit = try broker.brokerCtl(["edit", String(id), "--title", "Teardrop", "--artist", "Massive Attack", "--album", "Mezzanine"])
        #expect(edit.status == .exited(0), "\(edit.standardError)")
        #expect(edit.standardOutput == "Corrected: listen \(id) now reads Teardrop — Massive Attack · Mezzanine.\n")
        #expect(try await changed.take() == "Teardrop")

        #expect(try await client.recentMedia().map(\.title) == ["Teardrop"])
        let byID = try #require(try await client.media(ids: [id]).first)
        #expect(byID.title == "Teardrop" && byID.artists == ["Massive Attack"] && byID.album == "Mezzanine")
        let moments = try await client.moments(since: Date().addingTimeInterval(-3600))
        #expect(moments.flatMap(\.assetIDs) == [id])
        #expect(moments.first?.title.contains("Massive Attack") == true || moments.first?.title.contains("Teardrop") == true,
                "\(moments.map(\.title))")
        let export = try broker.brokerCtl(["export"])
        #expect(export.standardOutput.contains("Teardrop") && !export.standardOutput.contains("Teardorp"))

        let undo = try broker.brokerCtl(["edit", String(id), "--undo"])
        #expect(undo.standardOutput == "Undone: listen \(id) now reads Teardorp — Massive Atack · Mezanine.\n", "\(undo.standardError)")
        #expect(try await changed.take() == "Teardorp")
        #expect(try await client.recentMedia().map(\.title) == ["Teardorp"])
        let again = try broker.brokerCtl(["edit", String(id), "--undo"])
        #expect(again.status == .exited(1) && again.standardError.contains("holds no correction"), "\(again.standardError)")
        let missing = try broker.brokerCtl(["edit", "999999", "--title", "X"])
        #expect(missing.status == .exited(1) && missing.standardError.contains("no asset 999999"), "\(missing.standardError)")
        #expect(try broker.stop() == .exited(0))
    }
}

/// Issue 34 §3's rules on real parts: `edit --from-now-on` corrects real mpv's next play of the
/// same track as it is recorded, and not another app's, also after a restart; `rules remove` stops it.
@Suite(.serialized, .timeLimit(.minutes(3))) struct CorrectionRuleEndToEndTests {
    @Test("a rule corrects mpv's next play of the same track, not another app's, after a restart too; removed, the next play is recorded as told")
    func ruleCorrectsTheNextPlay() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "2"])
        let client = try broker.client()
        let media = try TemporaryDirectory(prefix: "media")
        let track = media.appending("teardorp.ogg")
        try AudioFixture.makeTaggedTrack(at: track, title: "Teardorp", artist: "Massive Atack", album: "Mezzanine", seconds: 3)
        func play(on broker: RunningBroker) async throws {
            let player = try MPVPlayer.launch(playing: [track], on: bus)
            #expect(try player.process.waitForExit(timeout: .seconds(20)) == .exited(0))
            try await broker.waitUntilNoPlayers(try broker.client())
        }

        try await play(on: broker)
        let first = try #require(try await client.recentMedia().first)
        #expect(first.title == "Teardorp" && first.appID == "mpv")
        let changed = try await client.mediaChanged()
        let edit = try broker.brokerCtl(["edit", String(first.id), "--title", "Teardrop", "--artist", "Massive Attack", "--from-now-on"])
        #expect(edit.status == .exited(0) && edit.standardOutput.contains("Later listens"), "\(edit.standardError)")
        var changes = changed.makeAsyncIterator()
        #expect(await changes.next()?.title == "Teardrop", "the client's mediaChanged stream tells the correction")

        let added = try await client.mediaAdded()
        try await play(on: broker)
        var news = added.makeAsyncIterator()
        let next = try #require(await news.next())
        #expect(next.title == "Teardrop" && next.artists == ["Massive Attack"] && next.album == "Mezzanine",
                "the rule corrects the listen as it is recorded and announced; the album is left as told")
        let other = try await client.donate(Donation(appID: "org.example.Radio", title: "Teardorp", artists: ["Massive Atack"],
                                                     started: Date().addingTimeInterval(-60), listened: .seconds(30)))
        #expect(try await client.media(ids: [other]).first?.title == "Teardorp", "another app's listen is recorded as told")

        #expect(try await client.rules().map { [$0.appID, $0.title, $0.correctedTitle] } == [["mpv", "Teardorp", "Teardrop"]])
        let listed = try broker.brokerCtl(["rules", "--json"])
        #expect(listed.standardOutput.contains(#""app_id":"mpv","title":"Teardorp","artists":["Massive Atack"]"#), "\(listed.standardOutput)")
        let ruleID = try #require(try broker.brokerCtl(["rules", "--ids"]).standardOutput.split(separator: "\n").first.map(String.init))
        let undo = try broker.brokerCtl(["edit", String(next.id), "--undo"])
        #expect(undo.standardOutput.contains("now reads Teardorp"), "a listen a rule corrected keeps its told words: \(undo.standardError)")

        #expect(try broker.stop() == .exited(0))

        let restarted = try RunningBroker(bus: bus, data: broker.data, arguments: ["--min-listen", "2"])
        let restartedClient = try restarted.client()
        let again = try await restartedClient.mediaAdded()
        var recorded = again.makeAsyncIterator()
        try await play(on: restarted)
        #expect(await recorded.next()?.title == "Teardrop", "the rule outlives the broker")
        #expect(try restarted.brokerCtl(["rules", "remove", ruleID]).status == .exited(0))
        #expect(try restarted.brokerCtl(["rules"]).standardOutput.hasPrefix("No correction applies"))
        try await play(on: restarted)
        #expect(await recorded.next()?.title == "Teardorp", "without the rule the next play is recorded as told")
        #expect(try await restartedClient.rules().isEmpty)
        let unknown = try restarted.brokerCtl(["rules", "remove", ruleID])
        #expect(unknown.status == .exited(1) && unknown.standardError.contains("no correction rule"), "\(unknown.standardError)")
        #expect(try restarted.stop() == .exited(0))
    }
}
