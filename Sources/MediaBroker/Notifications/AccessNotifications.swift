import Clocks
import Localization
import SwiftDBus
import BrokerCore

/// Puts `RequestAccess` questions to the person through the desktop's notification service
/// (`org.freedesktop.Notifications`, with the actions *Allow* and *Don't allow*, the app's name
/// and icon from its desktop file), waits up to ``patience`` for the answer,
/// stores it, and answers the caller: `allowed`, `denied`, or `unanswered` (the notification was
/// dismissed or left alone: nothing is stored). Shown through ``DesktopNotifications``.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
final class AccessNotifications: @unchecked Sendable {
    /// The longest `reason` shown, in bytes; longer ones are cut.
    static let maximumReasonBytes = 200

    private let notifications: DesktopNotifications
    private let settings: CurrentSettings
    private let keeper: SettingsKeeper
    private let resolver: AppResolver
    private let log: Log
    /// How long the person has to answer (``AccessQuestions/patience``; shorter in tests).
    private let patience: Microseconds
    private var questions = AccessQuestions()
    private var callers: [String: MethodInvocation] = [:]
    private var shown: [String: DesktopNotifications.Shown] = [:]

    init(notifications: DesktopNotifications, settings: CurrentSettings, keeper: SettingsKeeper, resolver: AppResolver, log: Log,
         patience: Microseconds = AccessQuestions.patience) {
        self.notifications = notifications
        self.settings = settings
        self.keeper = keeper
        self.resolver = resolver
        self.log = log
        self.patience = patience
    }

    /// `RequestAccess` from a caller the gate identified as `reader`.
    func requestAccess(_ call: MethodInvocation, from reader: Reader) {
        guard case .app(let appID) = reader else {
            // A host process reads already; an unidentified one was refused before this runs.
            return call.reply([.string(AccessQuestions.Answer.allowed.rawValue)])
        }
        let options = (try? call.arguments[0].vardict()) ?? [:]
        guard options["reason"].map({ (try? $0.string()) != nil }) ?? true else { return call.fail(.invalidArgs("'reason' must be a string")) }
        let reason = (try? options["reason"]?.string()).flatMap { BoundedText.clean($0, maxBytes: Self.maximumReasonBytes) }
        switch questions.start(for: appID, settings: settings.value, now: WallClock.now) {
        case .answered(let answer):
            call.reply([.string(answer.rawValue)])
        case .refused(let message):
            call.fail(BusError(.brokerAccessDenied, message))
        case .ask:
            questions.opened(for: appID)
            callers[appID] = call
            resolver.identity(forAppID: appID) { [self, loop = notifications.loop] app in
                loop.execute { [self] in show(appID, name: app.appName ?? appID, icon: app.appIcon, reason: reason) }
            }
        }
    }

    private func show(_ appID: String, name: String, icon: String?, reason: String?) {
        guard questions.open.contains(appID) else { return }
        // TRANSLATORS: the app's own reason for asking, quoted, on a line of its own.
        let body = (reason.map { localized("“{reason}”", ["reason": NotificationMarkup.escaped($0)]) + "\n" } ?? "")
            + localized("{app} asks to see what you listened to, and to hear of what you listen to next. You can change your mind with broker-ctl.",
                        ["app": NotificationMarkup.escaped(name)])
        let question = DesktopNotifications.Notification(
            summary: localized("Let {app} see your listening?", ["app": name]), body: body, icon: icon,
            actions: [(AccessQuestions.allowAction, localized("Allow")), (AccessQuestions.denyAction, localized("Don’t allow"))])
        shown[appID] = notifications.show(question, patience: patience) { [self] outcome in
            shown[appID] = nil
            switch outcome {
            case .chose(let key, _):
                answered(appID, AccessQuestions.answer(forAction: key))
            case .dismissed, .timedOut:
                finish(appID, .unanswered)
            case .notShown(let why):
                log.warning("could not ask about \(appID): the notification service gave \(why)")
                finish(appID, failing: BusError(.brokerAccessDenied,
                    "the broker could not ask the person (no notification service: \(why)); they can allow \(appID) with `broker-ctl allow \(appID)`"))
            }
        }
    }

    private func answered(_ appID: String, _ answer: AccessQuestions.Answer) {
        guard let access = ReaderGrant.Access(rawValue: answer.rawValue) else { return finish(appID, answer) }
        log.info("the person \(access == .allowed ? "allowed" : "did not allow") \(appID) to read the listening history")
        keeper.setGrant(ReaderGrant(access: access, decided: WallClock.now), for: appID) { [self] error in
            if let error { finish(appID, failing: error) } else { finish(appID, answer) }
        }
    }

    /// The person forgot their decision for `appID` (`SetReaderAccess(…, "unset")`): an
    /// unanswered question no longer holds its next one back.
    func forgetUnanswered(_ appID: String) { questions.forgetUnanswered(appID) }

    private func finish(_ appID: String, _ answer: AccessQuestions.Answer) {
        guard let call = end(appID) else { return }
        if answer == .unanswered { questions.leftUnanswered(appID, at: WallClock.now) }
        call.reply([.string(answer.rawValue)])
    }

    private func finish(_ appID: String, failing error: BusError) {
        end(appID)?.fail(error)
    }

    private func end(_ appID: String) -> MethodInvocation? {
        guard questions.close(appID) else { return nil }
        if let question = shown.removeValue(forKey: appID) { notifications.withdraw(question) }
        return callers.removeValue(forKey: appID)
    }

    /// The broker stops: every open question is answered `unanswered` (without counting as asked).
    func stop() {
        for appID in Array(callers.keys) {
            if let question = shown.removeValue(forKey: appID) { notifications.withdraw(question) }
            if questions.close(appID) { callers.removeValue(forKey: appID)?.reply([.string(AccessQuestions.Answer.unanswered.rawValue)]) }
        }
    }
}
