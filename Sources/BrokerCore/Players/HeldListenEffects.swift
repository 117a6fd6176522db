/// The store work a player's listens ask for while its app is not known yet, held until it is:
/// opt-outs and the assets' `app_id` must use the resolved identity, never a provisional one.
///
/// Held work is coalesced as it arrives, so a player flooding track changes before its app is known
/// holds one entry per listen that still matters, not one per signal: a later write of the same
/// listen replaces the earlier (only its newest state can still be written), a listen that ends
/// unrecorded takes its held write with it (nothing of it reached the store), and a finished listen
/// replaces its held write with the record. What is held is data, never closures.
struct HeldListenEffects {
    /// One held effect and the privacy settings in force each time it or an effect it replaced
    /// happened: the listen may be written only if every one of them allowed its app.
    struct Held {
        var effect: ListenEffect
        var settings: [PrivacySettings]
    }

    private(set) var items: [Held] = []
    /// How many effects were folded into others (or cancelled) since the last `takeAll`.
    private(set) var coalesced = 0
    /// How many finished listens are held: each qualified, so none may be dropped.
    private(set) var finishedCount = 0

    var isEmpty: Bool { items.isEmpty }

    /// Holds `effect`, which happened under `settings` (more than one when it was held before).
    mutating func hold(_ effect: ListenEffect, settings: some Collection<PrivacySettings>) {
        let key = effect.listen.key
        let earlier = items.lastIndex { $0.effect.listen.key == key && !$0.effect.isFinished }
        var seen = earlier.map { items[$0].settings } ?? []
        for settings in settings where seen.last != settings { seen.append(settings) }
        switch effect {
        case .opened, .checkpoint:
            guard let earlier else { return items.append(Held(effect: effect, settings: seen)) }
            items[earlier] = Held(effect: effect, settings: seen)
            coalesced += 1
        case .finished:
            if let earlier {
                items.remove(at: earlier)
                coalesced += 1
            }
            items.append(Held(effect: effect, settings: seen))
            finishedCount += 1
        case .dropped:
            // A write still held never reached the store: dropping it is all the drop needs.
            guard let earlier else { return items.append(Held(effect: effect, settings: seen)) }
            items.remove(at: earlier)
            coalesced += 2
        }
    }

    /// Everything held, in the order it came; empties the list.
    mutating func takeAll() -> [Held] {
        defer {
            items.removeAll()
            coalesced = 0
            finishedCount = 0
        }
        return items
    }
}

extension ListenEffect {
    var isFinished: Bool { if case .finished = self { true } else { false } }
}
