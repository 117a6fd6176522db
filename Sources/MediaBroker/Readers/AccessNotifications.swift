import Clocks
import SwiftDBus
import BrokerCore

/// Puts `RequestAccess` questions to the person through the desktop's notification service
/// (`org.freedesktop.Notifications`, with the actions *Allow* and *Don't allow*, the app's name
/// and icon from its desktop file), waits up to ``patience`` for the answer,
/// stores it, and answers the caller: `allowed`, `denied`, or `unanswered` (the notification was
/// dismissed or left alone: nothing is stored). Only the server that showed a question may answer
/// it: its signals are matched to the sender that answered `Notify`.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
final class AccessNotifications: @unchecked Sendable {
    static let service: BusName = "org.freedesktop.Notifications"
    static let path: ObjectPath = "/org/freedesktop/Notifications"
    static let interface: InterfaceName = "org.freedesktop.Notifications"
    /// The longest `reason` shown, in bytes; longer ones are cut.
    static let maximumReasonBytes = 200

    private let connection: BusConnection
    private let settings: CurrentSettings
    private let keeper: SettingsKeeper
    private let resolver: AppResolver
    private let log: Log
    /// How long the person has to answer (``AccessQuestions/patience``; shorter in tests).
    private let patience: Microseconds
    private var questions = AccessQuestions()
    private var callers: [String: MethodInvocation] = [:]
    private var timers: [String: TimerToken] = [:]
    /// The unique name of the server showing each open question.
    private var servers: [String: String] = [:]
    private var tokens: [MatchToken] = []

    init(connection: BusConnection, settings: CurrentSettings, keeper: SettingsKeeper, resolver: AppResolver, log: Log,
         patience: Microseconds = AccessQuestions.patience) {
        self.connection = connection
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
            listen { [self] in
                resolver.identity(forAppID: appID) { [self, loop = connection.loop] app in
                    loop.execute { [self] in show(appID, name: app.appName ?? appID, icon: app.appIcon, reason: reason) }
                }
            }
        }
    }

    /// Subscribes to the server's answers once, before the first question is shown; `then` runs
    /// once both match rules are in place (at once after that).
    private func listen(then: @escaping () -> Void) {
        if matchesInPlace { return then() }
        if waitingForMatches != nil { return waitingForMatches?.append(then) ?? () }
        waitingForMatches = [then]
        addMatch(["ActionInvoked", "NotificationClosed"][...])
    }

    /// Questions waiting for the match rules while they are added.
    private var waitingForMatches: [() -> Void]?
    private var matchesInPlace = false

    private func addMatch(_ members: ArraySlice<MemberName>) {
        guard let member = members.first else {
            matchesInPlace = true
            let ready = waitingForMatches ?? []
            waitingForMatches = nil
            return ready.forEach { $0() }
        }
        let handler: @Sendable (BusMessage) -> Void
        if member == "ActionInvoked" {
            handler = { [self] message in actionInvoked(message) }
        } else {
            handler = { [self] message in closed(message) }
        }
        connection.addMatch(MatchRule(interface: Self.interface, member: member, path: Self.path), handler: handler) { [self] result in
            if case .success(let token) = result { tokens.append(token) }
            addMatch(members.dropFirst())
        }
    }

    private func show(_ appID: String, name: String, icon: String?, reason: String?) {
        let body = (reason.map { "“\(NotificationMarkup.escaped($0))”\n" } ?? "")
            + "\(NotificationMarkup.escaped(name)) asks to see what you listened to, and to hear of what you listen to next. "
            + "You can change your mind with broker-ctl."
        let arguments: [DBusValue] = [
            .string("Media Broker"), .uint32(0), .string(icon ?? ""), .string("Let \(name) see your listening?"), .string(body),
            .strings([AccessQuestions.allowAction, "Allow", AccessQuestions.denyAction, "Don’t allow"]),
            .vardict(["urgency": .byte(1)]), .int32(0),
        ]
        let call = MethodCall(destination: Self.service, path: Self.path, interface: Self.interface, member: "Notify", arguments: arguments)
        connection.call(call, timeout: .seconds(10)) { [self] result in
            guard case .success(let reply) = result, let id = try? reply.arguments.first?.integer(as: UInt32.self), let server = reply.sender else {
                let why = (try? result.get()).map { _ in "an answer it could not read" } ?? "\((result.failure?.message) ?? "no answer")"
                log.warning("could not ask about \(appID): the notification service gave \(why)")
                return finish(appID, failing: BusError(.brokerAccessDenied,
                    "the broker could not ask the person (no notification service: \(why)); they can allow \(appID) with `broker-ctl allow \(appID)`"))
            }
            questions.shown(appID, notification: id)
            servers[appID] = server
            timers[appID] = connection.schedule(after: .microseconds(patience)) { [self] in
                timers[appID] = nil
                withdraw(id)
                finish(appID, .unanswered)
            }
        }
    }

    /// The question `id` of the server that sent `message`, if it is one of ours.
    private func question(_ message: BusMessage) -> (appID: String, id: UInt32)? {
        guard let id = try? message.arguments.first?.integer(as: UInt32.self), let appID = questions.appID(showing: id),
              servers[appID] == message.sender else { return nil }
        return (appID, id)
    }

    private func actionInvoked(_ message: BusMessage) {
        guard let (appID, id) = question(message), message.arguments.count == 2, let key = try? message.arguments[1].string() else { return }
        let answer = AccessQuestions.answer(forAction: key)
        // Answered: the server's NotificationClosed that follows, and the timer, no longer count.
        servers[appID] = nil
        timers.removeValue(forKey: appID)?.cancel()
        withdraw(id)
        guard let access = ReaderGrant.Access(rawValue: answer.rawValue) else { return finish(appID, answer) }
        log.info("the person \(access == .allowed ? "allowed" : "did not allow") \(appID) to read the listening history")
        keeper.setGrant(ReaderGrant(access: access, decided: WallClock.now), for: appID) { [self] error in
            if let error { finish(appID, failing: error) } else { finish(appID, answer) }
        }
    }

    private func closed(_ message: BusMessage) {
        guard let (appID, _) = question(message) else { return }
        finish(appID, .unanswered)
    }

    /// Takes the notification away (a server keeps an answered one only when it is resident).
    private func withdraw(_ id: UInt32) {
        connection.call(MethodCall(destination: Self.service, path: Self.path, interface: Self.interface, member: "CloseNotification",
                                 arguments: [.uint32(id)], allowsAutoStart: false)) { _ in }
    }

    /// The person forgot their decision for `appID` (`SetReaderAccess(…, "unset")`): an
    /// unanswered question no longer holds its next one back.
    func forgetUnanswered(_ appID: String) { questions.forgetUnanswered(appID) }

    private func finish(_ appID: String, _ answer: AccessQuestions.Answer) {
        let wasShown = (questions.open[appID] ?? nil) != nil
        guard let call = end(appID) else { return }
        if answer == .unanswered, wasShown { questions.leftUnanswered(appID, at: WallClock.now) }
        call.reply([.string(answer.rawValue)])
    }

    private func finish(_ appID: String, failing error: BusError) {
        end(appID)?.fail(error)
    }

    private func end(_ appID: String) -> MethodInvocation? {
        guard questions.close(appID) != nil else { return nil }
        timers.removeValue(forKey: appID)?.cancel()
        servers[appID] = nil
        return callers.removeValue(forKey: appID)
    }

    func stop() {
        for token in tokens { token.cancel() }
        for appID in Array(callers.keys) { finish(appID, .unanswered) }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
