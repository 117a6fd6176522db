public import FoundationEssentials
import SwiftDBus

/// Sandboxed apps and the history (broker version 3): a Flatpak or snap app reads nothing until
/// the person allows it. It asks with ``MediaBrokerClient/requestAccess(reason:)``; the person's
/// own programs see and change the decisions (``MediaBrokerClient/readers()``,
/// ``MediaBrokerClient/setReaderAccess(_:_:)``).
extension MediaBrokerClient {
    /// What the person answered a ``requestAccess(reason:)``.
    public enum AccessAnswer: String, Sendable {
        /// Allowed, now or before: the app may read.
        case allowed
        /// Refused: the app may ask again 24 hours later.
        case denied
        /// The person dismissed the question or left it for two minutes: nothing was decided.
        case unanswered
    }

    /// Asks the person, through a desktop notification, whether this (sandboxed) app may read the
    /// listening history; `reason` is the one line shown with the question ("Add music to today's
    /// entry"). Waits up to two minutes for the answer. A host process is `allowed` at once.
    /// Throws ``MediaBrokerError/accessDenied(_:)`` when the person refused less than a day ago,
    /// when a question of this app is already open, or when there is no notification service to
    /// ask through.
    public func requestAccess(reason: String? = nil) async throws(MediaBrokerError) -> AccessAnswer {
        var options: [String: DBusValue] = [:]
        if let reason { options["reason"] = .string(reason) }
        // The broker waits two minutes for the person; the call waits a little longer.
        let reply = try await call("RequestAccess", [.vardict(options)], timeout: .seconds(150))
        guard let text = try? reply.first?.string(), let answer = AccessAnswer(rawValue: text) else { throw Self.unexpected("RequestAccess") }
        return answer
    }

    /// The sandboxed apps the person decided about, by app id. Host processes only.
    public func readers() async throws(MediaBrokerError) -> [ReaderInfo] {
        let reply = try await call("Readers", [])
        guard let items = try? reply.first?.array() else { throw Self.unexpected("Readers") }
        return items.compactMap { item -> ReaderInfo? in
            guard let fields = try? item.vardict(), let id = try? fields["app_id"]?.string(),
                  let access = (try? fields["access"]?.string()).flatMap(ReaderInfo.Access.init(rawValue:)),
                  let decided = try? fields["decided"]?.integer(as: Int64.self) else { return nil }
            return ReaderInfo(
                appID: id, appName: try? fields["app_name"]?.string(), appIcon: try? fields["app_icon"]?.string(), access: access,
                decided: Date(microsecondsSinceEpoch: decided),
                lastRead: (try? fields["last_read"]?.integer(as: Int64.self)).map(Date.init(microsecondsSinceEpoch:)))
        }
    }

    /// The person's decision for a sandboxed app: allowed, denied, or `nil` to forget it (the app
    /// reads nothing and may ask again). Host processes only.
    public func setReaderAccess(_ appID: String, _ access: ReaderInfo.Access?) async throws(MediaBrokerError) {
        _ = try await call("SetReaderAccess", [.string(appID), .string(access?.rawValue ?? "unset")])
    }
}

/// A sandboxed app the person decided about.
public struct ReaderInfo: Sendable, Equatable {
    public enum Access: String, Sendable, CaseIterable {
        case allowed, denied
    }

    public var appID: String
    /// From the app's desktop file, when installed.
    public var appName: String?
    public var appIcon: String?
    public var access: Access
    /// When the person decided.
    public var decided: Date
    /// When the app last read the history (noted every ten minutes at most).
    public var lastRead: Date?

    public init(appID: String, appName: String? = nil, appIcon: String? = nil, access: Access, decided: Date, lastRead: Date? = nil) {
        self.appID = appID
        self.appName = appName
        self.appIcon = appIcon
        self.access = access
        self.decided = decided
        self.lastRead = lastRead
    }
}
