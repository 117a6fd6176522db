import AssetContract
import Clocks
import SwiftDBus
import BrokerCore

/// Changes the person's settings: the Media toggle, a pause, retention, opt-outs and readers' grants. A
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
    /// The one timer of a pause with an end: armed only while paused (an idle broker never wakes).
    private var pauseEnd: TimerToken?

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
        if after.pausedUntil != change.before.pausedUntil { armPauseEnd() }
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

    /// `NewApps`: what becomes of an app the person has neither allowed nor opted out. Leaving
    /// `record`, the apps the history holds count as allowed: they are not new, and a person who
    /// asks to be asked about new apps does not mean the ones they listen to every day.
    func setNewApps(_ value: DBusValue, done: @escaping @Sendable (BusError?) -> Void) {
        guard case .string(let text) = value, let mode = PrivacySettings.NewApps(rawValue: text) else {
            return done(.invalidArgs("NewApps is one of record, ask, ignore"))
        }
        guard settings.value.newApps == .record, mode != .record else { return change({ $0.newApps = mode }, done: done) }
        store.appSummaries { [self, loop = connection.loop] result in
            loop.execute { [self] in
                guard case .success(let summaries) = result else { return done(.failed("the history could not be read")) }
                change({ settings in
                    settings.newApps = mode
                    settings.allowedApps.formUnion(summaries.map(\.appID).filter { settings.optOuts[$0] == nil && AssetContract.isAppID($0) })
                }, done: done)
            }
        }
    }

    // MARK: Pause

    /// `Pause(a{sv} options)`: for `duration` (x, µs), until `until` (x, µs since the epoch), or,
    /// with neither, until `Resume`. A new pause replaces the one in force.
    func pause(_ call: MethodInvocation) {
        let request: PauseRequest
        do throws(BusError) {
            request = try PauseRequest(options: call.arguments.first.flatMap { try? $0.vardict() } ?? [:])
        } catch {
            return call.fail(error)
        }
        switch request.end(askedAt: WallClock.now) {
        case .failure(let refusal): call.fail(BusError(refusal))
        case .success(let end): change({ $0.pausedUntil = end }, done: call.finish)
        }
    }

    /// `Resume()`: recording goes on now (nothing happens when it was not paused).
    func resume(_ call: MethodInvocation) {
        change({ $0.pausedUntil = nil }, done: call.finish)
    }

    /// Arms the timer that ends the pause in force at its time, or disarms it when there is none
    /// with an end. The timer looks at the wall clock when it fires: a machine that slept through
    /// the end resumes when it wakes.
    func armPauseEnd() {
        pauseEnd?.cancel()
        pauseEnd = nil
        guard let end = settings.value.pausedUntil, end != PrivacySettings.untilResumed else { return }
        pauseEnd = connection.schedule(after: .microseconds(max(0, end - WallClock.now))) { [self] in
            pauseEnd = nil
            guard settings.value.pauseHasEnded(at: WallClock.now) else { return armPauseEnd() }
            change({ $0.pausedUntil = nil }) { [log] error in
                if error == nil { log.info("the pause ended: recording again") }
            }
        }
    }

    /// The broker stops: no timer outlives it.
    func stop() {
        pauseEnd?.cancel()
        pauseEnd = nil
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
        decide(decision, for: appID, done: call.finish)
    }

    /// Carries out `decision` about `appID` (a call's, or the answer to a new app's question).
    func decide(_ decision: OptOutRequest.Decision, for appID: String, done: @escaping @Sendable (BusError?) -> Void) {
        switch decision {
        case .unchanged: done(nil)
        case .refused(let refusal): done(BusError(refusal))
        default: change({ decision.apply(to: &$0, appID: appID) }, done: done)
        }
    }

    /// `SetSiteOptedOut`: the person keeps a site in browsers out of the history, or lets it in again.
    func setSiteOptedOut(_ call: MethodInvocation) {
        guard case .string(let text) = call.arguments[0], case .boolean(let optedOut) = call.arguments[1] else { return }
        guard let site = AssetContract.site(normalizing: text) else { return call.fail(.invalidArgs("'site' must be a host name, like example.com")) }
        change({ settings in
            if optedOut { settings.optedOutSites.insert(site) } else { settings.optedOutSites.remove(site) }
        }, done: call.finish)
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
