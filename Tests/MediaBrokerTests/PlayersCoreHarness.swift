@testable import MediaBroker
import SwiftDBus
import Testing
@testable import BrokerCore
import CoreFixtures

/// Drives a ``PlayersCore`` as the runtime would, with no bus: it feeds inputs, keeps the timers
/// the core arms (firing them when the hand-moved clock passes them) and collects what the core
/// asks the store and the log to do.
final class PlayersCoreHarness {
    final class Clock {
        var wall: Microseconds = 1_800_000_000_000_000
        var monotonic: Microseconds = 5_000_000
    }

    let clock = Clock()
    private(set) var core: PlayersCore!
    /// Every action the core returned, in order.
    private(set) var actions: [PlayersCore.Action] = []
    /// Timers armed and not yet fired or cancelled, with when they fire (monotonic).
    private(set) var timers: [PlayersCore.Timer: Microseconds] = [:]
    /// Clues the core resolved on its own thread (a player leaving, the broker stopping).
    private(set) var resolvedNow: [PlayerClues] = []
    /// What the resolver answers, by bus name.
    var apps: [String: AppIdentity] = [:]

    init(privacy: PrivacySettings = PrivacySettings(), rereadInterval: Microseconds = 30 * second, artworkFolder: String? = nil) {
        let clock = clock
        core = PlayersCore(rule: .default, privacy: privacy, safetyRereadInterval: rereadInterval, artworkFolder: artworkFolder,
                           clocks: .init(wall: { clock.wall }, monotonic: { clock.monotonic }),
                           resolveNow: { [unowned self] clues in
                               resolvedNow.append(clues)
                               return app(for: clues)
                           })
        core.begin()
    }

    func app(for clues: PlayerClues) -> AppIdentity {
        apps[clues.busName] ?? AppIdentity(appID: PlayerClues.stem(ofBusName: clues.busName), appName: nil, appIcon: nil, source: .busName)
    }

    /// Feeds `input`; returns the actions it caused.
    @discardableResult
    func feed(_ input: PlayersCore.Input) -> [PlayersCore.Action] {
        let result = core.handle(input)
        for action in result {
            switch action {
            case .arm(let timer, let delay): timers[timer] = clock.monotonic + delay
            case .cancel(let timer): timers[timer] = nil
            default: break
            }
        }
        actions += result
        return result
    }

    /// Moves both clocks on, firing every timer that falls due on the way, in order.
    func advance(by delta: Microseconds) {
        let end = clock.monotonic + delta
        while let (timer, due) = timers.filter({ $0.value <= end }).min(by: { $0.value < $1.value }) {
            clock.wall += due - clock.monotonic
            clock.monotonic = due
            timers[timer] = nil
            feed(.timerFired(timer))
        }
        clock.wall += end - clock.monotonic
        clock.monotonic = end
    }

    // MARK: A player's life

    /// A player takes `busName` on connection `unique`; returns the meeting's reference.
    @discardableResult
    func meet(_ busName: String, as unique: String) -> PlayerRef? {
        let reads = feed(.nameOwnerChanged(name: busName, old: "", new: unique))
        return reads.lazy.compactMap { if case .read(let ref, .player) = $0 { ref } else { nil } }.first
    }

    /// The bus daemon tells its process, the player its identity, the resolver its app.
    func identify(_ ref: PlayerRef, desktopEntry: String? = nil, identity: String = "Player", pid: UInt32 = 4242) {
        feed(.processFound(ref, FakeProcess.connected(pid)))
        var properties: [String: DBusValue] = ["Identity": .string(identity)]
        if let desktopEntry { properties["DesktopEntry"] = .string(desktopEntry) }
        let answer = feed(.answered(ref, .identity, .success([.vardict(properties)])))
        for case .resolveApp(let ref, let clues) in answer { feed(.appResolved(ref, app(for: clues))) }
    }

    /// A player met and identified.
    @discardableResult
    func follow(_ busName: String, as unique: String) throws -> PlayerRef {
        let ref = try #require(meet(busName, as: unique))
        identify(ref)
        return ref
    }

    /// The player answers a read of its properties.
    func answer(_ ref: PlayerRef, _ properties: [String: DBusValue]) {
        feed(.answered(ref, .player, .success([.vardict(properties)])))
    }

    static func track(_ title: String, length: Microseconds = 200 * second, id: String? = nil, art: String? = nil) -> DBusValue {
        var metadata: [String: DBusValue] = [
            "mpris:trackid": .string(id ?? "track:\(title)"),
            "xesam:title": .string(title), "xesam:artist": .strings(["Artist"]), "mpris:length": .int64(length),
        ]
        if let art { metadata["mpris:artUrl"] = .string(art) }
        return .vardict(metadata)
    }

    /// The player says it plays `title`.
    func play(_ ref: PlayerRef, _ title: String, length: Microseconds = 200 * second) {
        answer(ref, ["Metadata": Self.track(title, length: length), "PlaybackStatus": .string("Playing")])
    }

    func stopPlaying(_ ref: PlayerRef) {
        answer(ref, ["PlaybackStatus": .string("Stopped")])
    }

    // MARK: What it did

    var storeWork: [ListenRecorder.StoreWork] {
        actions.compactMap { action -> ListenRecorder.StoreWork? in if case .store(let work) = action { work } else { nil } }
    }

    var recorded: [MediaAsset] {
        storeWork.compactMap { if case .record(let asset, _) = $0 { asset } else { nil } }
    }

    var logLines: [String] {
        actions.compactMap { if case .log(_, let line) = $0 { line } else { nil } }
    }

    func forgetActions() { actions.removeAll() }
}
