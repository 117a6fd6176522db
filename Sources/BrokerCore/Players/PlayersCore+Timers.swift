import Clocks

/// Timers — deadlines, re-reads, retries — and the listens a previous run left open.
extension PlayersCore {
    // MARK: Leftovers

    func settleLeftovers(stillOnBus names: Set<String>) {
        leftovers.takeGone(stillOnBus: names).forEach(finishLeftover)
        guard !leftovers.isEmpty else { return }
        actions.append(.arm(.leftovers, after: LeftoverListens.patience.wholeMicroseconds))
    }

    func resume(_ waiting: [OpenListen], of player: FollowedPlayer, from properties: PlayerProperties) {
        var remaining = waiting
        if let first = remaining.first,
           let resumed = LeftoverListens.resuming(first, with: properties, rule: rule,
                                                  recordingAllowed: recorder.privacy.allows(player.appID), at: clocks.wall()) {
            remaining.removeFirst()
            player.listening = resumed
            player.status = resumed.status
            log(.info, "resumed a listen on \(player.uniqueName) left open by the previous run")
            tell(player, .tick)
            scheduleSafetyReread(of: player)
        }
        remaining.forEach(finishLeftover)
        if remaining.count == waiting.count { apply(properties, to: player) }
    }

    func finishLeftover(_ leftover: OpenListen) {
        actions.append(.store(LeftoverListens.finishing(leftover, rule: rule, privacy: recorder.privacy)))
    }

    // MARK: Timers

    func fired(_ timer: Timer) {
        guard case .leftovers = timer else {
            guard let (player, kind) = player(of: timer) else { return }
            _ = player.armed.remove(kind)
            switch kind {
            case .deadline:
                player.deadlineFiresAt = nil
                tell(player, .tick)
            case .reread:
                    readPlayerProperties(of: player)
            case .identityRetry:
                readIdentity(of: player)
            case .playerRetry:
                readPlayerProperties(of: player)
            }
            return
        }
        leftovers.takeAll().forEach(finishLeftover)
    }

    func player(of timer: Timer) -> (FollowedPlayer, FollowedPlayer.TimerKind)? {
        let (ref, kind): (PlayerRef, FollowedPlayer.TimerKind)
        switch timer {
        case .deadline(let r): (ref, kind) = (r, .deadline)
        case .reread(let r): (ref, kind) = (r, .reread)
        case .identityRetry(let r): (ref, kind) = (r, .identityRetry)
        case .playerRetry(let r): (ref, kind) = (r, .playerRetry)
        case .leftovers: return nil
        }
        return followed(ref).map { ($0, kind) }
    }

    func arm(_ kind: FollowedPlayer.TimerKind, of player: FollowedPlayer, after delay: Microseconds) {
        player.armed.insert(kind)
        actions.append(.arm(kind.timer(for: player.ref), after: delay))
    }

    func cancel(_ kind: FollowedPlayer.TimerKind, of player: FollowedPlayer) {
        guard player.armed.remove(kind) else { return }
        actions.append(.cancel(kind.timer(for: player.ref)))
    }

    func cancelTimers(of player: FollowedPlayer) {
        for kind in player.armed.kinds { actions.append(.cancel(kind.timer(for: player.ref))) }
        player.armed.removeAll()
        player.deadlineFiresAt = nil
    }

    /// ", N ms after it was met", for the debug lines of a player's events.
    func sinceMet(_ player: FollowedPlayer) -> String {
        ", \((clocks.wall() - player.metAt) / 1000) ms after it was met"
    }

    func log(_ level: LogLevel, _ message: String) {
        actions.append(.log(level, message))
    }
}
