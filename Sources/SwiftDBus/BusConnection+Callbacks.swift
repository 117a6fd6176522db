import Locking
/// Callback forms for code that lives on the connection's thread (a daemon's domain logic) and
/// must not hop through tasks for every message.
extension BusConnection {
    /// Subscribes like ``addMatch(_:handler:)``; `completion` runs on the connection's thread
    /// once the bus has added the rule (or with the error). Keep the token to keep the match.
    public func addMatch(
        _ rule: MatchRule, handler: @escaping @Sendable (BusMessage) -> Void,
        completion: @escaping @Sendable (Result<MatchToken, BusError>) -> Void
    ) {
        let core = core
        let accepted = loop.execute { [self] in
            let id = core.addHandler(rule, handler)
            guard id != 0 else {
                completion(.failure(BusError(.disconnected, "the connection is closed")))
                return
            }
            let token = MatchToken(connection: self, id: id, rule: rule)
            call(MethodCall(destination: Self.busName, path: Self.busPath, interface: .bus, member: "AddMatch",
                            arguments: [.string(rule.description)])) { result in
                completion(result.map { _ in token })
            }
        }
        if !accepted { completion(.failure(BusError(.disconnected, "the connection is closed"))) }
    }

    /// Calls a method of the bus daemon; `completion` runs on the connection's thread.
    public func callBus(
        _ member: MemberName, _ arguments: [DBusValue] = [], timeout: Duration = .seconds(25),
        completion: @escaping @Sendable (Result<[DBusValue], BusError>) -> Void
    ) {
        call(MethodCall(destination: Self.busName, path: Self.busPath, interface: .bus, member: member, arguments: arguments),
             timeout: timeout) { completion($0.map(\.arguments)) }
    }

    /// Runs `handler` on the connection's thread after `delay`; the returned token cancels it.
    /// Nothing wakes the thread before then.
    public func schedule(after delay: Duration, _ handler: @escaping @Sendable () -> Void) -> TimerToken {
        let token = TimerToken(loop: loop)
        if loop.isCurrent {
            token.arm(loop.schedule(after: delay) { handler() })
        } else {
            loop.execute { [loop] in token.arm(loop.schedule(after: delay) { handler() }) }
        }
        return token
    }
}


/// A scheduled timer; ``cancel()`` stops it if it has not fired.
public final class TimerToken: Sendable {
    private let loop: EventLoop
    private let state = Locked<(id: UInt64?, cancelled: Bool)>((nil, false))

    init(loop: EventLoop) { self.loop = loop }

    func arm(_ id: UInt64) {
        let cancelled = state.withLock { s -> Bool in
            s.id = id
            return s.cancelled
        }
        if cancelled { loop.cancelTimer(id) }
    }

    public func cancel() {
        let id = state.withLock { s -> UInt64? in
            s.cancelled = true
            return s.id
        }
        guard let id else { return }
        let loop = loop
        if loop.isCurrent { loop.cancelTimer(id) } else { loop.execute { loop.cancelTimer(id) } }
    }
}
