import SwiftDBus
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

@Suite("HistoryWriter: what is recorded is stored once and announced once it is on disk")
struct HistoryWriterTests {
    /// A writer whose announcer tells the rig's client (subscribed as the host) of what it stores.
    static func writer(_ rig: BrokerPartsRig) async throws -> (HistoryWriter, added: Mailbox<[DBusValue]>) {
        let settings = CurrentSettings(PrivacySettings(retentionDays: 0))
        let announcer = Announcer(connection: rig.connection, settings: settings, log: rig.log)
        let eraser = HistoryEraser(connection: rig.connection, store: rig.store, settings: settings, announcer: announcer, log: rig.log)
        let writer = HistoryWriter(connection: rig.connection, store: rig.store, announcer: announcer, eraser: eraser, rules: CorrectionRules(), log: rig.log)
        await rig.serve([
            ExportedMethod("Subscribe") { call in announcer.subscribe(call, as: .host) },
            ExportedMethod("Ping") { call in call.reply() },
        ])
        let added = try await rig.signals("MediaAdded")
        _ = try await rig.call("Subscribe")
        return (writer, added)
    }

    @Test("a listen delivered twice is stored once and announced once, with its id")
    func aListenIsRecordedOnce() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let (writer, added) = try await Self.writer(rig)
        let outcomes = Mailbox<Result<InsertOutcome, StoreError>>()
        let listen = makeAsset("So What")
        await rig.onBusThread {
            writer.record(listen, openKey: nil) { outcomes.put($0) }
            writer.record(listen, openKey: nil) { outcomes.put($0) }
        }
        let first = try await outcomes.take().get(), second = try await outcomes.take().get()
        #expect(first.wasNew && !second.wasNew && first.id == second.id)
        let announced = try #require(try await added.take().first?.vardict())
        #expect(announced["title"] == .string("So What") && announced["id"] == .int64(first.id))
        _ = try await rig.call("Ping")
        #expect(added.count == 0)
        #expect(try await answer { rig.store.count(completion: $0) } == 1)
    }

    @Test("one event's store work goes as one unit: the listen's record in progress is written, then finished into the history")
    func oneEventsWorkIsOneUnit() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let (writer, added) = try await Self.writer(rig)
        let listen = makeAsset("Freddie Freeloader")
        await rig.onBusThread {
            writer.together { writer.carryOut(.saveOpenListen(key: "k", asset: listen, checkpoint: listen.started)) }
        }
        #expect(try await answer { rig.store.openListens(completion: $0) }.map(\.key) == ["k"])
        await rig.onBusThread { writer.together { writer.carryOut(.record(listen, openKey: "k")) } }
        #expect(try await added.take().first?.vardict()["title"] == .string("Freddie Freeloader"))
        #expect(try await answer { rig.store.openListens(completion: $0) }.isEmpty)
        #expect(try await answer { rig.store.count(completion: $0) } == 1)
    }

    @Test("an asset whose app id breaks the rule is refused, announced to no one, and its record in progress goes")
    func aBadAssetIsRefused() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let (writer, added) = try await Self.writer(rig)
        let bad = makeAsset("Blue in Green", app: "not an app id")
        try await answer { rig.store.saveOpenListen(key: "k", asset: makeAsset(), checkpoint: 1, completion: $0) }
        let outcome = Mailbox<Result<InsertOutcome, StoreError>>()
        await rig.onBusThread { writer.record(bad, openKey: "k") { outcome.put($0) } }
        let refused = try await outcome.take()
        #expect(throws: StoreError.self) { try refused.get() }
        #expect(try await answer { rig.store.openListens(completion: $0) }.isEmpty)
        _ = try await rig.call("Ping")
        #expect(added.count == 0)
        #expect(try await answer { rig.store.count(completion: $0) } == 0)
    }
}

/// The writer applies the person's correction rules as it records (issue 34, §3).
@Suite("HistoryWriter: correction rules")
struct HistoryWriterRulesTests {
    @Test("a rule corrects the matching listen as it is recorded and announced; another app's is recorded as told")
    func aRuleCorrectsTheNextListen() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let (writer, added) = try await HistoryWriterTests.writer(rig)
        let rule = CorrectionRule(id: 1, appID: "mpv", title: "Teardorp", artists: ["Artist"],
                                  correction: MediaCorrection(title: "Teardrop"), created: 0)
        let outcomes = Mailbox<Result<InsertOutcome, StoreError>>()
        await rig.onBusThread {
            writer.use(CorrectionRules([rule]))
            writer.record(makeAsset("Teardorp", app: "mpv", started: 1), openKey: nil) { outcomes.put($0) }
            writer.record(makeAsset("Teardorp", app: "vlc", started: 2), openKey: nil) { outcomes.put($0) }
        }
        let corrected = try await outcomes.take().get()
        _ = try await outcomes.take().get()
        #expect(try await added.take().first?.vardict()["title"] == .string("Teardrop"))
        #expect(try await added.take().first?.vardict()["title"] == .string("Teardorp"), "another app's listen")
        #expect(try await answer { rig.store.undoEdit(corrected.id, completion: $0) }?.title == "Teardorp", "the told words are kept")
    }
}
