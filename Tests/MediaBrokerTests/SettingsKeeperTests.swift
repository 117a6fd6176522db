import SwiftDBus
import TestSupport
import Testing
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

/// Notes each change it is told of, under its name, in a log it shares with others.
private final class NotedChanges: SettingsKeeper.Observer {
    let name: String
    let log: Locked<[String]>

    init(_ name: String, log: Locked<[String]>) {
        self.name = name
        self.log = log
    }

    func settingsChanged(_ change: SettingsChange) {
        log.withLock { $0.append("\(name): media \(change.after.mediaEnabled ? "on" : "off")") }
    }
}

@Suite("SettingsKeeper: a change applies at once, is told to the parts in order, and is saved")
struct SettingsKeeperTests {
    /// A keeper over `settings`, whose observers note into `log`; `players` says which app each
    /// connection plays as.
    static func keeper(_ rig: BrokerPartsRig, _ settings: CurrentSettings, log: Locked<[String]>,
                       players: @escaping @Sendable (String) -> String? = { _ in nil }) -> SettingsKeeper {
        SettingsKeeper(connection: rig.connection, store: rig.store, settings: settings,
                       observers: [NotedChanges("first", log: log), NotedChanges("second", log: log)],
                       appOfPlayer: players, log: rig.log)
    }

    /// Turns Media `on` or off through a keeper over the default settings; what was in force right
    /// after the call, what the observers were told, and the caller's answer.
    static func switchMedia(_ rig: BrokerPartsRig, on: Bool) async throws -> (inForce: Bool, told: [String], answer: String) {
        let settings = CurrentSettings(PrivacySettings())
        let log = Locked<[String]>([])
        let keeper = Self.keeper(rig, settings, log: log)
        let answered = Mailbox<String>()
        let inForce = await rig.onBusThread {
            keeper.change({ $0.mediaEnabled = on }) { error in answered.put(error.map { "\($0)" } ?? "answered") }
            return settings.value.mediaEnabled
        }
        return (inForce, log.withLock { $0 }, try await answered.take())
    }

    @Test("the change is in force and told to each observer, in order, before the caller is answered; the answer comes once it is saved")
    func aChangeAppliesAtOnceAndIsSaved() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let (inForce, told, answered) = try await Self.switchMedia(rig, on: false)
        #expect(inForce == false)
        #expect(told == ["first: media off", "second: media off"])
        #expect(answered == "answered")
        let saved = try await answer { rig.store.setting(PrivacySettings.storeKey, completion: $0) }
        #expect(try saved.map(PrivacySettings.init(decoding:))?.mediaEnabled == false)
    }

    @Test("settings set to what they are tell no one and write nothing")
    func noChangeIsNoChange() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let (inForce, told, answered) = try await Self.switchMedia(rig, on: true)
        #expect(inForce == true && answered == "answered")
        #expect(told.isEmpty)
        #expect(try await answer { rig.store.setting(PrivacySettings.storeKey, completion: $0) } == nil)
    }

    @Test("a value of the wrong type or out of range is InvalidArgs and changes nothing")
    func badValuesAreRefused() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let settings = CurrentSettings(PrivacySettings())
        let keeper = Self.keeper(rig, settings, log: Locked([]))
        let answers = Mailbox<ErrorName?>()
        await rig.onBusThread {
            keeper.setMediaEnabled(.string("no")) { answers.put($0?.name) }
            keeper.setRetentionDays(.uint32(PrivacySettings.maximumRetentionDays + 1)) { answers.put($0?.name) }
        }
        #expect(try await answers.take() == .invalidArgs)
        #expect(try await answers.take() == .invalidArgs)
        #expect(settings.value == PrivacySettings())
    }

    @Test("a player opts its own app out and back in; it cannot undo the person's opt-out, and a caller with no player name cannot opt at all")
    func playersOptThemselves() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let settings = CurrentSettings(PrivacySettings())
        let player = rig.client.uniqueName
        let keeper = Self.keeper(rig, settings, log: Locked([])) { $0 == player ? "org.example.Player" : nil }
        await rig.serve([
            ExportedMethod("OptOut") { call in keeper.playerOpt(call, out: true) },
            ExportedMethod("OptIn") { call in keeper.playerOpt(call, out: false) },
            ExportedMethod("SetAppOptedOut", inputs: [Argument("app_id", .string), Argument("opted_out", .boolean)]) { call in
                keeper.setAppOptedOut(call)
            },
        ])
        _ = try await rig.call("OptOut")
        #expect(await rig.onBusThread { settings.value.optOuts } == ["org.example.Player": .app])
        _ = try await rig.call("OptIn")
        #expect(await rig.onBusThread { settings.value.optOuts }.isEmpty)

        _ = try await rig.call("SetAppOptedOut", [.string("org.example.Player"), .boolean(true)])
        await #expect(throws: BusError.self) { _ = try await rig.call("OptIn") }
        #expect(await rig.onBusThread { settings.value.optOuts } == ["org.example.Player": .user])

        let stranger = try BusConnection.connect(to: rig.bus.address)
        defer { stranger.close() }
        let call = MethodCall(destination: try BusName(rig.connection.uniqueName), path: BrokerPartsRig.path,
                              interface: BrokerPartsRig.interface, member: "OptOut")
        #expect(await refusal(of: call, from: stranger)?.name == .notAPlayer)
    }
}
