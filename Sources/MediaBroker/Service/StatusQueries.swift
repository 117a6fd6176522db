import MediaBrokerVersion
import SwiftDBus
import BrokerCore

/// Answers what is going on now: `NowPlaying`, `Apps` and `Status`, from the players followed and
/// the history, as the person's settings and the caller's right to read allow.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
final class StatusQueries: @unchecked Sendable {
    private let players: PlayerTracker
    private let gate: ReaderGate
    private let store: HistoryStore
    private let settings: CurrentSettings
    private let resolver: AppResolver

    init(players: PlayerTracker, gate: ReaderGate, store: HistoryStore, settings: CurrentSettings, resolver: AppResolver) {
        self.players = players
        self.gate = gate
        self.store = store
        self.settings = settings
        self.resolver = resolver
    }

    func nowPlaying(_ call: MethodInvocation) {
        call.reply(AssetPage(assets: settings.value.shown(players.nowPlaying())))
    }

    func apps(_ call: MethodInvocation) {
        let settings = settings.value
        let live = players.followedPlayers()
        let asked = players.appsAskedAbout()
        let resolver = resolver
        // Runs on the store thread: icon and name lookups may touch the disk, never on the bus thread.
        store.appSummaries { result in
            guard case .success(let summaries) = result else {
                return call.fail(.failed("the history could not be read"))
            }
            let entries = AppsList.entries(history: summaries, playing: live, askedAbout: asked, settings: settings,
                                           identity: { resolver.identity(forAppID: $0) })
            call.reply([.array(element: .vardict, entries)])
        }
    }

    /// `Status`, once every player's store work waiting on its app has been queued, so what it
    /// reports (and the count, queued after it) reflects everything the broker has seen.
    func status(_ call: MethodInvocation) {
        players.whenSettled { [self] in reportStatus(call) }
    }

    /// `paused` and `paused_until` while recording is paused: told to every caller, as `PausedUntil` is.
    private static func pauseFields(_ pausedUntil: Microseconds?) -> [String: DBusValue] {
        guard let pausedUntil else { return [:] }
        var fields: [String: DBusValue] = ["paused": .boolean(true)]
        if pausedUntil != PrivacySettings.untilResumed { fields["paused_until"] = .int64(pausedUntil) }
        return fields
    }

    private func reportStatus(_ call: MethodInvocation) {
        // Which players play, and how much is kept, is the history too: only for those who may read it.
        let pause = Self.pauseFields(settings.value.pausedUntil)
        guard gate.mayRead(call) else {
            return call.reply([.vardict(pause.merging(["version": .string(MediaBrokerVersion.current)]) { $1 })])
        }
        let players = players.followedPlayers().map { player -> DBusValue in
            var fields: [String: DBusValue] = [
                "bus_name": .string(player.busName), "unique_name": .string(player.uniqueName), "app_id": .string(player.appID),
            ]
            if let status = player.playbackStatus { fields["playback_status"] = .string(status) }
            return .vardict(fields)
        }
        store.count { result in
            var fields: [String: DBusValue] = pause.merging([
                "version": .string(MediaBrokerVersion.current),
                "players": .array(element: .vardict, players),
            ]) { $1 }
            if case .success(let count) = result { fields["assets"] = .uint64(UInt64(max(0, count))) }
            call.reply([.vardict(fields)])
        }
    }
}
