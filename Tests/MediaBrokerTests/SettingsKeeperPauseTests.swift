import Clocks
import SwiftDBus
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore

/// Hands on each pause or end of one it is told of.
private final class PauseWatcher: SettingsKeeper.Observer {
    let told: Mailbox<Microseconds?>

    init(_ told: Mailbox<Microseconds?>) {
        self.told = told
    }

    func settingsChanged(_ change: SettingsChange) {
        if change.after.pausedUntil != change.before.pausedUntil { told.put(change.after.pausedUntil) }
    }
}

/// Issue 34 §1, the runtime: `Pause` and `Resume` change the settings as every setting changes,
/// and the keeper's one timer ends a pause at its time.
@Suite("SettingsKeeper: a pause is asked for, ends by itself, and is resumed")
struct SettingsKeeperPauseTests {
    static func keeper(_ rig: BrokerPartsRig, _ settings: CurrentSettings, told: Mailbox<Microseconds?>) -> SettingsKeeper {
        SettingsKeeper(connection: rig.connection, store: rig.store, settings: settings, observers: [PauseWatcher(told)],
                       appOfPlayer: { _ in nil }, log: rig.log)
    }

    @Test("a pause with an end ends by itself at its time: the observers are told and the settings saved without it")
    func aPauseEndsByItself() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let settings = CurrentSettings(PrivacySettings())
        let told = Mailbox<Microseconds?>()
        let keeper = Self.keeper(rig, settings, told: told)
        let end = WallClock.now + 300_000
        await rig.onBusThread { keeper.change({ $0.pausedUntil = end }, done: { _ in }) }
        #expect(try await told.take() == end)
        #expect(try await told.take() == nil)
        #expect(WallClock.now >= end)
        let saved = try await answer { rig.store.setting(PrivacySettings.storeKey, completion: $0) }
        #expect(try saved.map(PrivacySettings.init(decoding:))?.pausedUntil == nil)
    }

    @Test("a pause whose time passed while the broker was down ends as soon as the keeper arms its timer")
    func aPauseThatEndedMeanwhileEndsAtOnce() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let settings = CurrentSettings(PrivacySettings(pausedUntil: WallClock.now - 1_000_000))
        let told = Mailbox<Microseconds?>()
        let keeper = Self.keeper(rig, settings, told: told)
        await rig.onBusThread { keeper.armPauseEnd() }
        #expect(try await told.take() == nil)
        #expect(await rig.onBusThread { settings.value.pausedUntil } == nil)
    }

    @Test("Pause takes a duration, a time or neither; Resume ends it; a bad option changes nothing")
    func pauseAndResumeCalls() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let settings = CurrentSettings(PrivacySettings())
        let told = Mailbox<Microseconds?>()
        let keeper = Self.keeper(rig, settings, told: told)
        await rig.serve([
            ExportedMethod("Pause", inputs: [Argument("options", .vardict)]) { call in keeper.pause(call) },
            ExportedMethod("Resume") { call in keeper.resume(call) },
        ])
        _ = try await rig.call("Pause", [.vardict([:])])
        #expect(await rig.onBusThread { settings.value.pausedUntil } == PrivacySettings.untilResumed)
        let before = WallClock.now
        _ = try await rig.call("Pause", [.vardict(["duration": .int64(3_600_000_000)])])
        let until = try #require(await rig.onBusThread { settings.value.pausedUntil })
        #expect(until >= before + 3_600_000_000 && until <= WallClock.now + 3_600_000_000)
        for bad: [String: DBusValue] in [["duration": .int64(-1)], ["until": .int64(before - 1)], ["duration": .string("1h")],
                                         ["duration": .int64(1), "until": .int64(before + 1)], ["colour": .string("blue")]] {
            await #expect(throws: BusError.self, "\(bad)") { _ = try await rig.call("Pause", [.vardict(bad)]) }
            #expect(await rig.onBusThread { settings.value.pausedUntil } == until)
        }
        _ = try await rig.call("Resume")
        #expect(await rig.onBusThread { settings.value.pausedUntil } == nil)
        await rig.onBusThread { keeper.stop() }
    }
}
