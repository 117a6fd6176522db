import Localization
import SwiftDBus
import BrokerCore

/// Asks the person whether to record an app met for the first time (`new_apps = ask`): one
/// notification, "Record listening from Spotify?", with *Record* and *Don't record*. The answer is
/// the person's: it becomes the app's allowing or opt-out (``SettingsKeeper``), and the players'
/// core writes or drops the listens it held on that settings change. A question dismissed, left
/// alone for ``patience``, or never shown is told to the asker as unanswered.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
final class NewAppQuestions: @unchecked Sendable {
    /// How long a question waits for the person: the app's listens are held in memory meanwhile.
    static let patience: Microseconds = 3_600_000_000
    static let recordAction = "record"
    static let dontRecordAction = "dont-record"

    private let notifications: DesktopNotifications
    private let keeper: SettingsKeeper
    private let resolver: AppResolver
    private let log: Log
    private let patience: Microseconds
    private var shown: [String: DesktopNotifications.Shown] = [:]

    init(notifications: DesktopNotifications, keeper: SettingsKeeper, resolver: AppResolver, log: Log,
         patience: Microseconds = NewAppQuestions.patience) {
        self.notifications = notifications
        self.keeper = keeper
        self.resolver = resolver
        self.log = log
        self.patience = patience
    }

    /// Asks about `appID` (`name` and `icon` as its player told them, else its desktop file's);
    /// `unanswered` runs if the person gives no answer.
    func ask(about appID: String, name: String?, icon: String?, unanswered: @escaping @Sendable () -> Void) {
        guard shown[appID] == nil else { return }
        resolver.identity(forAppID: appID) { [self, loop = notifications.loop] app in
            loop.execute { [self] in
                show(appID, name: name ?? app.appName ?? appID, icon: icon ?? app.appIcon, unanswered: unanswered)
            }
        }
    }

    private func show(_ appID: String, name: String, icon: String?, unanswered: @escaping @Sendable () -> Void) {
        let escaped = NotificationMarkup.escaped(name)
        let question = DesktopNotifications.Notification(
            summary: localized("Record listening from {app}?", ["app": name]),
            body: localized("{app} is playing for the first time. Media Broker keeps what you hear in it only if you say so; until then it is held, not written. You can change your mind with broker-ctl.",
                            ["app": escaped]),
            icon: icon,
            actions: [(Self.recordAction, localized("Record")), (Self.dontRecordAction, localized("Don’t record"))])
        shown[appID] = notifications.show(question, patience: patience) { [self] outcome in
            shown[appID] = nil
            switch outcome {
            case .chose(Self.recordAction, _): decide(appID, record: true)
            case .chose(Self.dontRecordAction, _): decide(appID, record: false)
            case .chose, .dismissed, .timedOut:
                unanswered()
            case .notShown(let why):
                log.warning("could not ask whether to record \(appID): the notification service gave \(why)")
                unanswered()
            }
        }
    }

    private func decide(_ appID: String, record: Bool) {
        log.info("the person chose \(record ? "to record" : "not to record") \(appID)")
        keeper.decide(OptOutRequest.byPerson(appID: appID, optedOut: !record), for: appID) { [log] error in
            if let error { log.error("could not keep the decision about \(appID): \(error.message)") }
        }
    }

    /// The app no longer waits for an answer (the person decided elsewhere, or changed the mode):
    /// its question is taken away.
    func withdraw(about appID: String) {
        if let question = shown.removeValue(forKey: appID) { notifications.withdraw(question) }
    }

    func stop() {
        for appID in Array(shown.keys) { withdraw(about: appID) }
    }
}
