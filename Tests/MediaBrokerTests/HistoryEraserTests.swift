import Clocks
import SwiftDBus
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore

@Suite("HistoryEraser: Purge and retention delete, and each deletion is announced")
struct HistoryEraserTests {
    static let day: Microseconds = 86_400_000_000

    /// An eraser over the rig's store, its `Purge` served and its removals announced to the rig's
    /// client (subscribed as the host).
    static func eraser(_ rig: BrokerPartsRig, _ settings: CurrentSettings) async throws -> (HistoryEraser, removed: Mailbox<[DBusValue]>) {
        let announcer = Announcer(connection: rig.connection, settings: settings, log: rig.log)
        let eraser = HistoryEraser(connection: rig.connection, store: rig.store, settings: settings, announcer: announcer, log: rig.log)
        await rig.serve([
            ExportedMethod("Subscribe") { call in announcer.subscribe(call, as: .host) },
            ExportedMethod("Purge", inputs: [Argument("filter", .vardict)], outputs: [Argument("removed", .uint64)]) { call in
                eraser.purge(call)
            },
        ])
        let removed = try await rig.signals("MediaRemoved")
        _ = try await rig.call("Subscribe")
        return (eraser, removed)
    }

    static func ids(_ signal: [DBusValue]) -> [Int64] {
        ((try? signal.first?.array()) ?? []).compactMap { try? $0.integer(as: Int64.self) }
    }

    @Test("Purge deletes what its filter names and announces every id before it answers; a bad filter deletes nothing")
    func purgeAnnouncesBeforeItAnswers() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let (_, removed) = try await Self.eraser(rig, CurrentSettings(PrivacySettings()))
        let outcomes = try await answer { rig.store.insert(contentsOf: [makeAsset("a", app: "mpv"), makeAsset("b", app: "vlc"),
                                                                        makeAsset("c", app: "mpv", started: 2)], completion: $0) }
        await #expect(throws: BusError.self) { _ = try await rig.call("Purge", [.vardict(["colour": .string("blue")])]) }
        #expect(try await answer { rig.store.count(completion: $0) } == 3)

        let reply = try await rig.call("Purge", [.vardict(["app_id": .string("mpv")])])
        #expect(reply == [.uint64(2)])
        var announced: [Int64] = []
        while let signal = removed.count > 0 ? try await removed.take() : nil { announced += Self.ids(signal) }
        #expect(announced.sorted() == [outcomes[0].id, outcomes[2].id].sorted(), "every removal is announced before the reply")
        #expect(try await answer { rig.store.count(completion: $0) } == 1)
    }

    @Test("a shorter retention deletes what it no longer keeps at once, and announces it")
    func aShorterRetentionRunsAtOnce() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let settings = CurrentSettings(PrivacySettings(retentionDays: 0))
        let (eraser, removed) = try await Self.eraser(rig, settings)
        let now = WallClock.now
        let outcomes = try await answer { rig.store.insert(contentsOf: [makeAsset("old", started: now - 10 * Self.day),
                                                                        makeAsset("new", started: now - Self.day / 2)], completion: $0) }
        await rig.onBusThread {
            let before = settings.value
            var after = before
            after.retentionDays = 2
            settings.replace(with: after)
            eraser.settingsChanged(SettingsChange(before: before, after: after))
        }
        #expect(Self.ids(try await removed.take()) == [outcomes[0].id])
        #expect(try await answer { rig.store.count(completion: $0) } == 1)
    }

    @Test("a change that leaves the retention as it was runs nothing")
    func otherChangesRunNothing() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let settings = CurrentSettings(PrivacySettings(retentionDays: 2))
        let (eraser, _) = try await Self.eraser(rig, settings)
        _ = try await answer { rig.store.insert(makeAsset("old", started: WallClock.now - 10 * Self.day), completion: $0) }
        await rig.onBusThread {
            eraser.settingsChanged(SettingsChange(before: settings.value, after: PrivacySettings(mediaEnabled: false, retentionDays: 2)))
        }
        // The store runs its jobs in order: a retention run queued by the change would be done by now.
        #expect(try await answer { rig.store.count(completion: $0) } == 1)
    }
}
