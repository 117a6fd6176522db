public import FoundationEssentials
import SwiftDBus
import Synchronization

/// What the person handed the app in the broker's picker (``MediaBrokerClient/pickMedia(parentWindow:since:until:reason:multiple:)``).
public enum PickResult: Sendable, Equatable {
    /// The listens the person left ticked, in the order shown, and the moment they were picked
    /// from (describing those listens alone), if they were.
    case shared([GenericMedia], moment: Moment?)
    /// The person cancelled or closed the picker.
    case cancelled
    /// The request ended otherwise: the picker could not be shown or was killed, or the broker left.
    case ended
}

extension MediaBrokerClient {
    /// Asks the person to pick listens for this app in the broker's picker window (broker version
    /// 4 or later) and returns what they picked: the app never browses the history, and a
    /// sandboxed app needs no grant for this. Cancelling the task closes the picker.
    ///
    /// - Parameters:
    ///   - parentWindow: the app's window, as portals spell it (`x11:XID`, `wayland:HANDLE`), or empty.
    ///   - since, until: the span offered (the broker's default: the last 7 days).
    ///   - reason: the app's line shown in the picker ("Add music to today's entry").
    ///   - multiple: whether more than one listen may be picked.
    ///   - suggestion: a suggestion's id, from the URL a suggestion opened the app with (broker
    ///     version 9): the picker opens at that moment, its listens ticked, on its day unless
    ///     `since` or `until` is given; an id the broker no longer knows opens it as usual.
    /// - Throws: ``MediaBrokerError/busFailure(name:message:)`` with `NotSupported` when the broker
    ///   has no display to show the picker on, `LimitsExceeded` when this connection has a pick open.
    public func pickMedia(
        parentWindow: String = "", since: Date? = nil, until: Date? = nil, reason: String? = nil, multiple: Bool = true,
        suggestion: String? = nil
    ) async throws(MediaBrokerError) -> PickResult {
        // As portal clients do: the request's path is known before the call, so the Response is
        // subscribed to first and cannot come unheard.
        let token = "mb" + String(UInt64.random(in: 1...UInt64.max), radix: 16)
        let caller = String(connection.uniqueName.drop { $0 == ":" }.map { $0 == "." ? "_" : $0 })
        let path = ObjectPath(stringLiteral: "\(Self.objectPath)/request/\(caller)/\(token)")
        let outcome = Outcome()
        let stream = AsyncStream<PickResult> { continuation in outcome.continuation.withLock { $0 = continuation } }
        let response: MatchToken, owner: MatchToken
        do {
            response = try await connection.addMatch(MatchRule(
                sender: BusName(stringLiteral: Self.busName), interface: "org.freedesktop.portal.Request", member: "Response", path: path
            )) { message in outcome.finish(Self.result(of: message)) }
            owner = try await connection.addMatch(MatchRule(
                sender: BusConnection.busName, interface: .bus, member: "NameOwnerChanged", path: BusConnection.busPath, arg0: Self.busName
            )) { _ in outcome.finish(.ended) }
        } catch {
            throw MediaBrokerError(error)
        }
        defer {
            response.cancel()
            owner.cancel()
        }
        var options: [String: DBusValue] = ["handle_token": .string(token), "multiple": .boolean(multiple)]
        if let since { options["since"] = .int64(since.microsecondsSinceEpoch) }
        if let until { options["until"] = .int64(until.microsecondsSinceEpoch) }
        if let reason { options["reason"] = .string(reason) }
        if let suggestion { options["suggestion"] = .string(suggestion) }
        _ = try await call("PickMedia", [.string(parentWindow), .vardict(options)])
        connection.onDisconnect { outcome.finish(.ended) }
        return await withTaskCancellationHandler {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next() ?? .cancelled
        } onCancel: {
            let close = MethodCall(destination: BusName(stringLiteral: Self.busName), path: path,
                                   interface: "org.freedesktop.portal.Request", member: "Close")
            try? connection.send(close)
            outcome.finish(.cancelled)
        }
    }

    /// A `Response(u response, a{sv} results)`, read where it lies.
    static func result(of message: BusMessage) -> PickResult {
        var code: UInt32?
        var assets: [GenericMedia] = []
        var moment: Moment?
        try? message.body.read { reader throws(MarshallingError) in
            try reader.argument { value throws(MarshallingError) in code = try? value.value().integer(as: UInt32.self) }
            _ = try reader.entries { key, value throws(MarshallingError) in
                if key.equals("assets") {
                    _ = try value.elements { element throws(MarshallingError) in
                        if let media = try GenericMedia(reading: &element) { assets.append(media) }
                    }
                } else if key.equals("moment") {
                    moment = (try? value.value().vardict()).flatMap(Moment.init(fields:))
                }
            }
        }
        switch code {
        case 0?: return .shared(assets, moment: moment)
        case 1?: return .cancelled
        default: return .ended
        }
    }

    /// The one result of a pick, whichever comes first: the Response, the broker leaving, the
    /// connection lost, or the task cancelled.
    private final class Outcome: Sendable {
        let continuation = Mutex<AsyncStream<PickResult>.Continuation?>(nil)

        func finish(_ result: PickResult) {
            continuation.withLock { continuation in
                continuation?.yield(result)
                continuation?.finish()
                continuation = nil
            }
        }
    }
}
