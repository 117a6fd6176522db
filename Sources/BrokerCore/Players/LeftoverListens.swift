/// The listens a previous run left open (it crashed, or was killed), waiting for their players.
/// Pure: the caller says which players are on the bus and what they report, and carries out the
/// store work returned.
///
/// A listen whose player is still on the bus playing the same track simply continues — the time
/// the broker was down counts; any other is finished at its last checkpoint: recorded if it
/// qualifies and its app may be recorded, else removed.
struct LeftoverListens {
    /// How long a leftover waits for its player before it is finished as it was: its connection
    /// may be on the bus without being a player any more.
    static let patience: Duration = .seconds(5)

    /// By the unique name of the player that was playing them.
    private var waiting: [String: [OpenListen]] = [:]

    var isEmpty: Bool { waiting.isEmpty }

    mutating func adopt(_ open: [OpenListen]) {
        for listen in open {
            let player = Listen.parseStoreKey(listen.key)?.player ?? ""
            waiting[player, default: []].append(listen)
        }
    }

    /// The leftovers of players no longer on the bus, taken out to be finished.
    mutating func takeGone(stillOnBus names: Set<String>) -> [OpenListen] {
        let gone = waiting.filter { !names.contains($0.key) }
        for player in gone.keys { waiting[player] = nil }
        return gone.values.flatMap { $0 }
    }

    /// The leftovers of `player`, taken out; `nil` when it left none.
    mutating func take(for player: String) -> [OpenListen]? { waiting.removeValue(forKey: player) }

    /// Every leftover still waiting, taken out (patience ran out).
    mutating func takeAll() -> [OpenListen] {
        defer { waiting.removeAll() }
        return waiting.values.flatMap { $0 }
    }

    /// How the first of `leftovers` continues on a player that reports `properties` now: the
    /// listening state that picks it up, or `nil` when it does not continue (another track, a
    /// stopped player, an app that may not be recorded).
    static func resuming(
        _ leftover: OpenListen, with properties: PlayerProperties, rule: ListenRule, recordingAllowed: Bool,
        at now: Microseconds
    ) -> PlayerListening? {
        guard recordingAllowed, let track = properties.metadata, let status = properties.playbackStatus?.value else { return nil }
        let rate = properties.rate?.value ?? 1.0
        return PlayerListening(rule: rule, resuming: Listen(restoring: leftover), metadata: track, status: status, rate: rate, at: now)
    }

    /// What becomes of a leftover that does not continue.
    static func finishing(_ leftover: OpenListen, rule: ListenRule, privacy: PrivacySettings) -> ListenRecorder.StoreWork {
        guard rule.qualifies(listened: leftover.asset.listened, length: leftover.asset.length), privacy.allows(leftover.asset.appID)
        else { return .removeOpenListen(key: leftover.key) }
        var asset = leftover.asset
        asset.ended = max(asset.ended, leftover.checkpoint)
        return .record(asset, openKey: leftover.key)
    }
}
