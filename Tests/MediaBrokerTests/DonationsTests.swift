import Clocks
import SwiftDBus
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore

@Suite("Donations: an app's listen is stored, announced and answered with its id, as the settings allow")
struct DonationsTests {
    /// Donations served with the gate admitting each call, their assets announced to the client.
    static func served(_ rig: BrokerPartsRig, _ settings: CurrentSettings) async throws -> Mailbox<[DBusValue]> {
        let gate = rig.gate(settings)
        let announcer = Announcer(connection: rig.connection, settings: settings, log: rig.log)
        let eraser = HistoryEraser(connection: rig.connection, store: rig.store, settings: settings, announcer: announcer, log: rig.log)
        let writer = HistoryWriter(connection: rig.connection, store: rig.store, announcer: announcer, eraser: eraser, rules: CorrectionRules(), log: rig.log)
        let donations = Donations(connection: rig.connection, gate: gate, writer: writer, resolver: AppResolver(environment: [:]),
                                  settings: settings, rule: .lastFM)
        await rig.serve([
            ExportedMethod("Donate", inputs: [Argument("media", .vardict)], outputs: [Argument("id", .int64)]) { call in
                donations.donate(call)
            },
            ExportedMethod("Subscribe") { call in announcer.subscribe(call, as: gate.reader(of: call.sender)) },
        ], gate: gate)
        let added = try await rig.signals("MediaAdded")
        _ = try await rig.call("Subscribe")
        return added
    }

    static func listen(_ title: String) -> DBusValue {
        .vardict(["app_id": .string("org.example.Radio"), "title": .string(title), "artist": .string("Massive Attack"),
                  "started": .int64(WallClock.now - 300_000_000)])
    }

    @Test("the person's own program donates: stored once, announced, and answered with the asset's id")
    func aHostDonationIsStored() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let added = try await Self.served(rig, CurrentSettings(PrivacySettings()))
        let reply = try await rig.call("Donate", [Self.listen("Teardrop")])
        let id = try #require(try reply.first?.integer(as: Int64.self))
        #expect(id > 0)
        let announced = try #require(try await added.take().first?.vardict())
        #expect(announced["id"] == .int64(id) && announced["title"] == .string("Teardrop") && announced["source"] == .string("donation"))
        #expect(try await answer { rig.store.count(completion: $0) } == 1)
    }

    @Test("a field the contract does not take, or none at all, is InvalidArgs, and nothing is stored")
    func badDonationsAreRefused() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        _ = try await Self.served(rig, CurrentSettings(PrivacySettings()))
        for media: DBusValue in [.vardict(["app_id": .string("org.example.Radio"), "colour": .string("blue"), "title": .string("x")]),
                                 .vardict(["app_id": .string("org.example.Radio")]), .string("not a{sv}")] {
            await #expect(throws: BusError.self) { _ = try await rig.call("Donate", [media]) }
        }
        #expect(try await answer { rig.store.count(completion: $0) } == 0)
    }

    @Test("with Media off, or the app opted out, a donation is refused with the contract's error and not stored")
    func settingsRefuseDonations() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let settings = CurrentSettings(PrivacySettings(mediaEnabled: false))
        _ = try await Self.served(rig, settings)
        let destination = try BusName(rig.connection.uniqueName)
        let donate = MethodCall(destination: destination, path: BrokerPartsRig.path, interface: BrokerPartsRig.interface,
                                member: "Donate", arguments: [Self.listen("Unfinished Sympathy")])
        #expect(await refusal(of: donate, from: rig.client)?.name == .mediaDisabled)
        await rig.onBusThread { settings.replace(with: PrivacySettings(optOuts: ["org.example.Radio": .user])) }
        #expect(await refusal(of: donate, from: rig.client)?.name == .appOptedOut)
        #expect(try await answer { rig.store.count(completion: $0) } == 0)
    }
}
