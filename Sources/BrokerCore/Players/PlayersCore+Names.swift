/// Following players by their names: who owns an `org.mpris.MediaPlayer2.*` name, who left, and
/// (while signals pour in) who is still on the bus.
extension PlayersCore {
    // MARK: Names

    static func isPlayerName(_ name: String) -> Bool {
        // playerctld mirrors whichever player is active: never a source of its own.
        name.hasPrefix(mprisPrefix) && name != mprisPrefix + "playerctld"
    }

    func followed(_ ref: PlayerRef) -> FollowedPlayer? {
        guard let player = players[ref.uniqueName], player.ref == ref else { return nil }
        return player
    }

    func nameOwnerChanged(_ name: String, from old: String, to new: String) {
        if !old.isEmpty, let player = players[old] {
            player.busNames.remove(name)
            owners[name] = nil
            if player.busNames.isEmpty { playerLeft(player) }
        }
        guard !new.isEmpty else { return }
        if let player = players[new] {
            guard player.busNames.count < Self.maximumNamesPerConnection else {
                if !player.loggedNameLimit {
                    player.loggedNameLimit = true
                    log(.warning, "\(new) owns more than \(Self.maximumNamesPerConnection) MPRIS names; not following the rest")
                }
                return
            }
            owners[name] = new
            player.busNames.insert(name)
            return
        }
        guard players.count < Self.maximumPlayers else {
            if !loggedPlayerLimit {
                loggedPlayerLimit = true
                log(.warning, "already following \(Self.maximumPlayers) players; not following new ones until some leave")
            }
            return
        }
        owners[name] = new
        generations += 1
        let player = FollowedPlayer(ref: PlayerRef(uniqueName: new, generation: generations), rule: rule, metAt: clocks.wall())
        player.busNames.insert(name)
        players[new] = player
        log(.info, "following player \(name) (\(new))")
        actions.append(.askProcessID(player.ref))
        readIdentity(of: player)
        readPlayerProperties(of: player)
    }

    func playerLeft(_ player: FollowedPlayer) {
        log(.info, "player \(player.appID) (\(player.uniqueName)) left the bus")
        resolveNowIfPending(player)
        tell(player, .playerGone)
        cancelTimers(of: player)
        pendingArtworkBytes -= player.art.pendingBytes
        players[player.uniqueName] = nil
        if players.count < Self.maximumPlayers { loggedPlayerLimit = false }
    }

    /// A read found no connection under the player's unique name: it is gone, for good (a unique
    /// name is never given again), though its `NameOwnerChanged` has not come — it may have been
    /// dropped (see ``countSignal()``).
    func connectionGone(_ player: FollowedPlayer) {
        log(.info, "\(player.uniqueName) is no longer on the bus")
        for name in player.busNames { nameOwnerChanged(name, from: player.uniqueName, to: "") }
    }

    /// The bus daemon drops what it cannot queue for a connection that falls behind, and a
    /// `NameOwnerChanged` dropped so would leave a player that left followed, and "playing", until
    /// it is next read. So while signals pour in, the core asks now and then who is on the bus. A
    /// message is dropped only when the queue to the broker is full, thousands of signals deep: a
    /// check asked while the broker reads them is asked after the drop, and answered behind them.
    func countSignal() {
        signalsSinceNameCheck += 1
        guard signalsSinceNameCheck >= Self.signalsBetweenNameChecks, !checkingNames, !stopped else { return }
        signalsSinceNameCheck = 0
        checkingNames = true
        actions.append(.listNames)
    }

    /// A name the core follows that the bus no longer has left unannounced; a player name the core
    /// has not met is looked up, as at the start.
    func reconcile(onBus names: Set<String>) {
        for (name, owner) in owners where !names.contains(name) {
            log(.info, "\(name) (\(owner)) left the bus unannounced")
            nameOwnerChanged(name, from: owner, to: "")
        }
        for name in names where Self.isPlayerName(name) && owners[name] == nil { actions.append(.lookUpOwner(name)) }
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        for player in players.values {
            resolveNowIfPending(player)
            tell(player, .brokerStopping)
            cancelTimers(of: player)
        }
    }
}
