import SwiftDBus
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore

@Suite("Announcer: MediaAdded and MediaRemoved go to each subscriber that may read now, and to no one else")
struct AnnouncerTests {
    /// An announcer whose `SubscribeAs(kind)` method subscribes the caller as the host (`host`) or
    /// as the sandboxed app `org.example.App` (`app`).
    static func served(_ rig: BrokerPartsRig, settings: CurrentSettings) async -> Announcer {
        let announcer = Announcer(connection: rig.connection, settings: settings, log: rig.log)
        await rig.serve([
            ExportedMethod("SubscribeAs", inputs: [Argument("kind", .string)]) { call in
                announcer.subscribe(call, as: (try? call.arguments[0].string()) == "host" ? .host : .app("org.example.App"))
            },
            ExportedMethod("Ping") { call in call.reply() },
        ])
        return announcer
    }

    @Test("the host's subscription hears of an added asset and of removed ids; an app without a grant hears nothing")
    func subscribersThatMayReadHear() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let settings = CurrentSettings(PrivacySettings())
        let announcer = await Self.served(rig, settings: settings)
        let added = try await rig.signals("MediaAdded"), removed = try await rig.signals("MediaRemoved")
        _ = try await rig.call("SubscribeAs", [.string("app")])
        await rig.onBusThread { announcer.added(stored(makeAsset("Heard by no one"), id: 1)) }
        _ = try await rig.call("Ping")  // any signal sent before the reply has arrived by now
        #expect(added.count == 0)

        _ = try await rig.call("SubscribeAs", [.string("host")])
        await rig.onBusThread {
            announcer.added(stored(makeAsset("Blue Train"), id: 7))
            announcer.removed([7, 8])
            announcer.removed([])
        }
        let asset = try #require(try await added.take().first?.vardict())
        #expect(asset["title"] == .string("Blue Train") && asset["id"] == .int64(7))
        #expect(try await removed.take() == [.array(element: .int64, [.int64(7), .int64(8)])])
        _ = try await rig.call("Ping")
        #expect(removed.count == 0, "an empty removal is announced to no one")
    }

    @Test("a grant given lets an app hear from the next signal on; a connection that left hears nothing more")
    func grantsAndLeavingCountPerSignal() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let settings = CurrentSettings(PrivacySettings())
        let announcer = await Self.served(rig, settings: settings)
        let added = try await rig.signals("MediaAdded")
        _ = try await rig.call("SubscribeAs", [.string("app")])
        await rig.onBusThread {
            var allowed = settings.value
            allowed.readers["org.example.App"] = ReaderGrant(access: .allowed, decided: 1)
            settings.replace(with: allowed)
            announcer.added(stored(makeAsset("Allowed now"), id: 1))
        }
        #expect(try await added.take().first?.vardict()["title"] == .string("Allowed now"))
        let client = rig.client.uniqueName
        await rig.onBusThread {
            announcer.left(client)
            announcer.added(stored(makeAsset("After leaving"), id: 2))
        }
        _ = try await rig.call("Ping")
        #expect(added.count == 0)
    }
}
