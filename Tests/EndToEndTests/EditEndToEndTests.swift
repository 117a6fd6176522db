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
