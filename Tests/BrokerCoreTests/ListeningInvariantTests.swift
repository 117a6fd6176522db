import Testing
@testable import BrokerCore
import CoreFixtures

/// Random scripts of real and hostile events (issue 6 §2, a small in-suite cousin of the fuzzer):
/// whatever a player sends, in whatever order and at whatever times, the effects stay a coherent
/// sequence of store operations.
@Suite("Listening: invariants under random scripts")
struct ListeningInvariantTests {
    /// SplitMix64: deterministic, so a failure reproduces from its seed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let metadataPool: [TrackMetadata] = [
        .empty,
        TrackMetadata(trackID: "/t/1"),
        TrackMetadata(trackID: "/t/1", title: "One"),
        TrackMetadata(trackID: "/t/1", title: "One", artists: ["A"], album: "X", length: 200 * second),
        TrackMetadata(trackID: "/t/1", title: "One", artists: ["A"], album: "X", length: 20 * second),
        TrackMetadata(title: "Two", length: 600 * second),
        TrackMetadata(title: "Two", length: 600 * second, isExcluded: true),
        TrackMetadata(trackID: "spotify:ad:1", title: "Two"),
        TrackMetadata(title: "Firefox is playing media"),
        TrackMetadata(trackID: TrackMetadata.noTrackID, title: "One"),
        TrackMetadata(title: "Three", url: "file:///a.mkv", length: nil),
    ]

    static func randomEvent(_ rng: inout SeededGenerator) -> PlayerEvent {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<30: return .metadata(metadataPool.randomElement(using: &rng)!)
        case 30..<60: return .playbackStatus(PlaybackStatus.allCases.randomElement(using: &rng)!)
        case 60..<68: return .rate([1, 2, 0.5, 0, -1, .nan, .infinity, 1e9].randomElement(using: &rng)!)
        case 68..<76: return .seeked(position: [0, 1 * second, 100 * second, -1, .max, .min].randomElement(using: &rng)!)
        case 76..<80: return .position([0, 19 * second, 200 * second, 600 * second, -1, .max].randomElement(using: &rng)!)
        case 80..<92: return .tick
        case 92..<93: return .playingSince([.min, 0, scriptStart, .max].randomElement(using: &rng)!)
        case 93..<94: return .appChanged
        case 94..<97: return .discard
        case 97..<99: return .playerGone
        default: return .brokerStopping
        }
    }

    static func randomTime(after now: Microseconds, _ rng: inout SeededGenerator) -> Microseconds {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0: return .max
        case 1: return .min
        case 2..<5: return now &- Microseconds.random(in: 0...(60 * second), using: &rng)  // clock stepped back
        case 5..<30: return now
        default: return Clock.add(now, Microseconds.random(in: 0...(150 * second), using: &rng))
        }
    }

    @Test("effects always form open → checkpoints → finished or dropped, one listen at a time", arguments: [
        ListenRule.lastFM, .minimum(seconds: 2), .minimum(0),
    ])
    func effectsAreCoherent(rule: ListenRule) {
        for seed in UInt64(0)..<200 {
            var rng = SeededGenerator(state: seed)
            var listening = PlayerListening(rule: rule, checkpointInterval: [nil, 60 * second].randomElement(using: &rng)!)
            var open: String?
            var keys: Set<String> = []
            var now = scriptStart
            for step in 0..<200 {
                now = Self.randomTime(after: now, &rng)
                let event = Self.randomEvent(&rng)
                let effects = listening.handle(event, at: now)
                for effect in effects {
                    let listen = effect.listen
                    let context = "seed \(seed) step \(step) \(event) → \(effect)"
                    #expect(listen.started <= listen.ended, "\(context)")
                    #expect(listen.listened >= 0, "\(context)")
                    switch effect {
                    case .opened:
                        #expect(open == nil, "\(context)")
                        #expect(!keys.contains(listen.key), "\(context)")
                        #expect(listen.metadata.isRecordable, "\(context)")
                        open = listen.key
                        keys.insert(listen.key)
                    case .checkpoint:
                        #expect(open == listen.key, "\(context)")
                        #expect(listen.metadata.isRecordable, "\(context)")
                    case .finished:
                        // Written first, or qualifying before its first write (no event in between).
                        #expect(open == listen.key || (open == nil && !keys.contains(listen.key)), "\(context)")
                        keys.insert(listen.key)
                        #expect(listen.metadata.isRecordable, "\(context)")
                        #expect(rule.qualifies(listened: listen.listened, length: listen.length), "\(context)")
                        #expect(listen.asset(appID: "app", appName: nil, appIcon: nil) != nil, "\(context)")
                        open = nil
                    case .dropped(_, let reason):
                        #expect(open == listen.key, "\(context)")
                        if reason == .tooShort {
                            #expect(!rule.qualifies(listened: listen.listened, length: listen.length), "\(context)")
                        }
                        open = nil
                    }
                }
                // A written listen is the current one; a current one not written has not been heard
                // long enough to be (issue 16).
                if let open {
                    #expect(listening.current?.key == open, "seed \(seed) step \(step)")
                } else if let unwritten = listening.current {
                    #expect(unwritten.listened < PlayerListening.firstWriteAfter, "seed \(seed) step \(step)")
                    #expect(!rule.qualifies(listened: unwritten.listened, length: unwritten.length), "seed \(seed) step \(step)")
                }
                if let deadline = listening.nextDeadline(at: now) {
                    #expect(deadline >= now, "seed \(seed) step \(step)")
                }
                // The same status, metadata or rate again changes nothing.
                switch event {
                case .playbackStatus, .metadata, .rate:
                    #expect(listening.handle(event, at: now).isEmpty, "seed \(seed) step \(step) repeat \(event)")
                default: break
                }
            }
        }
    }
}
