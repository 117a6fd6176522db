/// The listens of new apps the person is being asked about (`new_apps = ask`): held in memory,
/// never written, until the answer. *Record* writes them as if the app had been allowed when they
/// were played; *Don't record*, or a question that ends unanswered, drops them.
///
/// Bounded, since any process can appear as a new app: at most ``maximumQuestions`` apps are
/// asked about at once, and each holds at most ``maximumFinishedListens`` finished listens. A
/// listen beyond a bound, or of an app whose question was left unanswered in this run, is not
/// held, so it is not recorded; such an app is asked about again after the broker restarts.
struct ListensAwaitingAnswer {
    static let maximumQuestions = 4
    static let maximumFinishedListens = 64

    /// One player's held effects (a player keeps the art its listens name until they are written).
    struct Held {
        let player: FollowedPlayer
        var effects = HeldListenEffects()
    }

    enum Outcome: Equatable {
        /// Held; the app's question is already asked.
        case held
        /// Held, the app's first: the person is to be asked.
        case heldFirst
        /// Not held: not asked about (left unanswered, or too many questions), or over its bound.
        case notHeld
    }

    /// The apps asked about, each with its players' held effects in the order met.
    private(set) var asking: [String: [Held]] = [:]
    /// Apps whose question ended unanswered in this run.
    private(set) var unansweredApps: Set<String> = []

    mutating func hold(_ effect: ListenEffect, of player: FollowedPlayer, settings: some Collection<PrivacySettings>) -> Outcome {
        let appID = player.appID
        guard !unansweredApps.contains(appID) else { return .notHeld }
        guard var held = asking[appID] else {
            guard asking.count < Self.maximumQuestions else { return .notHeld }
            var first = Held(player: player)
            first.effects.hold(effect, settings: settings)
            asking[appID] = [first]
            return .heldFirst
        }
        if effect.isFinished, held.reduce(0, { $0 + $1.effects.finishedCount }) >= Self.maximumFinishedListens { return .notHeld }
        if let index = held.firstIndex(where: { $0.player === player }) {
            held[index].effects.hold(effect, settings: settings)
        } else {
            var next = Held(player: player)
            next.effects.hold(effect, settings: settings)
            held.append(next)
        }
        asking[appID] = held
        return .held
    }

    /// The apps asked about that `settings` no longer leave undecided (the person answered, or
    /// changed the mode, Media or a pause), each with what it held; they are no longer held.
    mutating func settled(by settings: PrivacySettings) -> [(appID: String, held: [Held])] {
        let settled = asking.keys.filter { !settings.awaitsAnswer(about: $0) }.sorted()
        return settled.map { appID in (appID, asking.removeValue(forKey: appID) ?? []) }
    }

    /// The question about `appID` ended unanswered: what it held is dropped, and the app is not
    /// asked about again in this run. Returns how many listens were dropped.
    mutating func endUnanswered(_ appID: String) -> Int {
        guard let held = asking.removeValue(forKey: appID) else { return 0 }
        unansweredApps.insert(appID)
        return held.reduce(0) { $0 + $1.effects.items.count }
    }
}
