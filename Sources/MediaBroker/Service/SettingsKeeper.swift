import AssetContract
import SwiftDBus
import BrokerCore

/// Changes the person's settings: the Media toggle, retention, opt-outs and readers' grants. A
/// change applies at once (nothing is recorded from that moment), is told to the parts that act
/// on it and to clients (`PropertiesChanged`), and is saved; the caller is answered once it is on
/// disk. What a change means is ``SettingsChange``; who may opt an app out, ``OptOutRequest``.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
final class SettingsKeeper: @unchecked Sendable {
    /// A part that acts when the settings change.
    protocol Observer: AnyObject {
        func settingsChanged(_ change: SettingsChange)
    }

    private let connection: BusConnection
    private let store: HistoryStore
    private let settings: CurrentSettings
    private let observers: [any Observer]
    private let appOfPlayer: (String) -> String?
    private let log: Log

    /// `observers` are told of each change, in order, before clients are; `appOfPlayer` tells
    /// which app a connection plays as (`nil`: it owns no MPRIS name), for a player's own `OptOut`
    /// and `OptIn`.
    init(connection: BusConnection, store: HistoryStore, settings: CurrentSettings, observers: [any Observer],
         appOfPlayer: @escaping (String) -> String?, log: Log) {
        self.connection = connection
        self.store = store
        self.settings = settings
        self.observers = observers
        self.appOfPlayer = appOfPlayer
        self.log = log
    }

    /// Applies new settings at once, then makes them durable and answers `done` when they are on
    /// disk.
    func change(_ update: (inout PrivacySettings) -> Void, done: @escaping @Sendable (BusError?) -> Void) {
        var after = settings.value
        update(&after)
        let change = SettingsChange(before: settings.value, after: after)
        guard change.isChange else { return done(nil) }
        settings.replace(with: after)
        for observer in observers { observer.settingsChanged(change) }
        connection.emitPropertiesChanged(path: BrokerContract.objectPath, interface: BrokerContract.interface,
                                         names: change.changedProperties.compactMap { try? MemberName($0) })
        log.write(change.onlyNotesReads ? .debug : .info, change.logLine)
        store.setSetting(PrivacySettings.storeKey, after.encoded) { [log] result in
            if case .failure(let error) = result {
                log.error("could not save the settings: \(error)")
                done(.failed("the settings apply now but could not be saved: \(error)"))
            } else {
                done(nil)
            }
        }
    }

    func setMediaEnabled(_ value: DBusValue, done: @escaping @Sendable (BusError?) -> Void) {
        guard case .boolean(let enabled) = value else { return done(.invalidArgs("MediaEnabled is a boolean")) }
        change({ $0.mediaEnabled = enabled }, done: done)
    }

    func setRetentionDays(_ value: DBusValue, done: @escaping @Sendable (BusError?) -> Void) {
        guard let days = try? value.integer(as: UInt32.self), days <= PrivacySettings.maximumRetentionDays else {
            return done(.invalidArgs("RetentionDays must be 0…\(PrivacySettings.maximumRetentionDays)"))
        }
        change({ $0.retentionDays = days }, done: done)
    }

    // MARK: Opt-out

    func setAppOptedOut(_ call: MethodInvocation) {
        guard case .string(let appID) = call.arguments[0], case .boolean(let optedOut) = call.arguments[1] else { return }
        decide(OptOutRequest.byPerson(appID: appID, optedOut: optedOut), for: appID, call)
    }

    /// `OptOut`/`OptIn` from a player about itself: the app is the one the caller's MPRIS name
    /// resolves to, never a name the caller chooses.
    func playerOpt(_ call: MethodInvocation, out: Bool) {
        let appID = call.sender.flatMap(appOfPlayer)
        decide(OptOutRequest.byPlayer(appID: appID, out: out, settings: settings.value), for: appID ?? "", call)
    }

    private func decide(_ decision: OptOutRequest.Decision, for appID: String, _ call: MethodInvocation) {
        switch decision {
        case .unchanged: call.reply()
        case .refused(let refusal): call.fail(BusError(refusal))
        case .set(let source): change({ $0.optOuts[appID] = source }) { error in if let error { call.fail(error) } else { call.reply() } }
        }
    }

    // MARK: Readers

    /// `SetReaderAccess`'s decision, or a question's answer: `grant` for `appID` (`nil` forgets it).
    func setGrant(_ grant: ReaderGrant?, for appID: String, done: @escaping @Sendable (BusError?) -> Void) {
        change({ $0.readers[appID] = grant }, done: done)
    }

    /// Notes when a sandboxed app last read, at most every ``ReaderGrant/lastReadResolution``.
    func noteRead(by appID: String, at now: Microseconds) {
        guard let grant = settings.value.readers[appID],
              grant.lastRead.map({ now - $0 >= ReaderGrant.lastReadResolution }) ?? true else { return }
        change({ $0.readers[appID]?.lastRead = now }, done: { _ in })
    }
}
