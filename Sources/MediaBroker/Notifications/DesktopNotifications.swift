import Clocks
import SwiftDBus
import BrokerCore

/// The desktop's notification service (`org.freedesktop.Notifications`, Desktop Notifications
/// 1.2) as the broker uses it: a notification with actions is shown, and exactly one outcome is
/// told for it — the action the person chose (with the activation token the server gave, if any),
/// dismissed, left alone past its patience (then withdrawn), or never shown. Only the server that
/// showed a notification may answer it: its signals are matched to the sender that answered
/// `Notify`. Text is escaped by the caller (``NotificationMarkup``).
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
final class DesktopNotifications: @unchecked Sendable {
    static let service: BusName = "org.freedesktop.Notifications"
    static let path: ObjectPath = "/org/freedesktop/Notifications"
    static let interface: InterfaceName = "org.freedesktop.Notifications"

    struct Notification {
        var summary: String
        /// Markup the server may show (escaped by the caller).
        var body: String
        /// An icon name or a file path; `nil`: the server's default.
        var icon: String?
        /// The actions offered, as (key, label); the first is the default.
        var actions: [(key: String, label: String)]
        var hints: [String: DBusValue] = ["urgency": .byte(1)]
    }

    enum Outcome: Equatable {
        /// The person chose the action `key`; `activationToken`: what the server gave with it
        /// (`ActivationToken`, Notifications 1.2), for the app it starts to take focus.
        case chose(String, activationToken: String?)
        /// Closed with no action: dismissed by the person, or expired by the server.
        case dismissed
        /// Not answered within the patience given; the notification was withdrawn.
        case timedOut
        /// The service could not show it (`reason` for the log and the caller's error).
        case notShown(reason: String)
    }

    /// A notification shown, for ``withdraw(_:)``.
    struct Shown: Hashable {
        fileprivate let serial: Int
    }

    private struct Open {
        var outcome: (Outcome) -> Void
        /// Set once `Notify` answered.
        var id: UInt32?
        var server: String?
        var timer: TimerToken?
        /// The token an `ActivationToken` signal gave before its `ActionInvoked`.
        var activationToken: String?
    }

    private let connection: BusConnection
    private let log: Log
    private var open: [Int: Open] = [:]
    private var serials = 0
    private var tokens: [MatchToken] = []
    private var subscription = Subscription.none

    private enum Subscription {
        case none
        case adding(waiting: [() -> Void])
        case inPlace
    }

    init(connection: BusConnection, log: Log) {
        self.connection = connection
        self.log = log
    }

    /// The thread outcomes are told on (the connection's).
    var loop: EventLoop { connection.loop }

    /// Shows `notification`; `outcome` is told once. `patience`: how long the person has before it
    /// is withdrawn (`nil`: as long as the server keeps it).
    @discardableResult
    func show(_ notification: Notification, patience: Microseconds?, outcome: @escaping (Outcome) -> Void) -> Shown {
        serials += 1
        let serial = serials
        open[serial] = Open(outcome: outcome)
        subscribed { [self] in notify(serial, notification, patience: patience) }
        return Shown(serial: serial)
    }

    /// Takes `shown` away, telling no outcome (its caller no longer needs the answer).
    func withdraw(_ shown: Shown) {
        guard let entry = open.removeValue(forKey: shown.serial) else { return }
        entry.timer?.cancel()
        if let id = entry.id { close(id) }
    }

    /// The broker stops: every open notification is withdrawn and told as timed out.
    func stop() {
        for token in tokens { token.cancel() }
        tokens.removeAll()
        for serial in open.keys.sorted() {
            if let id = open[serial]?.id { close(id) }
            finish(serial, .timedOut)
        }
    }

    // MARK: Showing

    private func notify(_ serial: Int, _ notification: Notification, patience: Microseconds?) {
        guard open[serial] != nil else { return }
        let arguments: [DBusValue] = [
            .string("Media Broker"), .uint32(0), .string(notification.icon ?? ""), .string(notification.summary),
            .string(notification.body), .strings(notification.actions.flatMap { [$0.key, $0.label] }),
            .vardict(notification.hints), .int32(0),
        ]
        let call = MethodCall(destination: Self.service, path: Self.path, interface: Self.interface, member: "Notify", arguments: arguments)
        connection.call(call, timeout: .seconds(10)) { [self] result in
            guard case .success(let reply) = result, let id = try? reply.arguments.first?.integer(as: UInt32.self),
                  let server = reply.sender else {
                let reason: String
                switch result {
                case .failure(let error): reason = error.message
                case .success: reason = "an answer it could not read"
                }
                return finish(serial, .notShown(reason: reason))
            }
            guard open[serial] != nil else { return close(id) }
            open[serial]?.id = id
            open[serial]?.server = server
            if let patience {
                open[serial]?.timer = connection.schedule(after: .microseconds(patience)) { [self] in
                    open[serial]?.timer = nil
                    close(id)
                    finish(serial, .timedOut)
                }
            }
        }
    }

    private func close(_ id: UInt32) {
        connection.call(MethodCall(destination: Self.service, path: Self.path, interface: Self.interface, member: "CloseNotification",
                                   arguments: [.uint32(id)], allowsAutoStart: false)) { _ in }
    }

    private func finish(_ serial: Int, _ outcome: Outcome) {
        guard let entry = open.removeValue(forKey: serial) else { return }
        entry.timer?.cancel()
        entry.outcome(outcome)
    }

    // MARK: The server's signals

    /// Runs `then` once the match rules for the server's signals are in place.
    private func subscribed(then: @escaping () -> Void) {
        switch subscription {
        case .inPlace: then()
        case .adding(let waiting): subscription = .adding(waiting: waiting + [then])
        case .none:
            subscription = .adding(waiting: [then])
            addMatch(["ActionInvoked", "NotificationClosed", "ActivationToken"][...])
        }
    }

    private func addMatch(_ members: ArraySlice<MemberName>) {
        guard let member = members.first else {
            guard case .adding(let waiting) = subscription else { return }
            subscription = .inPlace
            return waiting.forEach { $0() }
        }
        let handler: @Sendable (BusMessage) -> Void = switch member {
        case "ActionInvoked": { [self] in actionInvoked($0) }
        case "ActivationToken": { [self] in activationToken($0) }
        default: { [self] in closed($0) }
        }
        connection.addMatch(MatchRule(interface: Self.interface, member: member, path: Self.path), handler: handler) { [self] result in
            switch result {
            case .success(let token): tokens.append(token)
            case .failure(let error): log.warning("could not hear the notification service's \(member): \(error.message)")
            }
            addMatch(members.dropFirst())
        }
    }

    /// The open notification `message` is about, if the server that showed it sent it.
    private func serial(of message: BusMessage) -> Int? {
        guard let id = try? message.arguments.first?.integer(as: UInt32.self) else { return nil }
        return open.first { $0.value.id == id && $0.value.server == message.sender }?.key
    }

    private func actionInvoked(_ message: BusMessage) {
        guard let serial = serial(of: message), message.arguments.count == 2, let key = try? message.arguments[1].string(),
              let id = open[serial]?.id else { return }
        let token = open[serial]?.activationToken
        // The server keeps an answered notification only when it is resident: take it away.
        close(id)
        finish(serial, .chose(key, activationToken: token))
    }

    private func activationToken(_ message: BusMessage) {
        guard let serial = serial(of: message), message.arguments.count == 2, let token = try? message.arguments[1].string() else { return }
        open[serial]?.activationToken = token
    }

    private func closed(_ message: BusMessage) {
        guard let serial = serial(of: message) else { return }
        finish(serial, .dismissed)
    }
}
