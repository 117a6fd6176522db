/// A run of listens a person would call one sitting — "An evening with *Mezzanine*, 21:04–22:10,
/// 9 tracks" — as `Moments` answers it. Built from a ``MomentGrouping`` run; pure.
package struct Moment: Equatable, Sendable {
    /// The smallest asset id in the moment, in decimal: it stays while the moment grows (new
    /// assets get larger ids) and across restarts, and it is the `before` cursor of the next page.
    package let id: String
    /// Oldest first.
    package let assets: [MediaAsset]
    package let started: Microseconds
    package let ended: Microseconds
    package let listened: Microseconds
    /// Artists and apps, most heard first (listened time, then first heard).
    package let artists: [String]
    package let appIDs: [String]
    package let appIcon: String?
    package let kind: MediaAsset.Kind?
    /// The album heard for most of it (more than half the listened time), if one was.
    package let album: String?
    package let title: MomentTitle

    package init(_ run: ArraySlice<MediaAsset>, localTime: LocalTime) {
        assets = Array(run)
        id = String(assets.lazy.compactMap { $0.id }.min() ?? 0)
        started = assets.lazy.map { $0.started }.min() ?? 0
        ended = assets.map { max($0.ended, $0.started) }.max() ?? started
        listened = assets.reduce(0) { $0 &+ max(0, $1.listened) }
        let heard = Heard(assets)
        artists = heard.ranked { $0.artists.first.map { [$0] } ?? [] }
        appIDs = heard.ranked { [$0.appID] }
        appIcon = heard.ranked { $0.appIcon.map { [$0] } ?? [] }.first
        kind = heard.ranked { $0.kind.map { [$0.rawValue] } ?? [] }.first.map(MediaAsset.Kind.init(rawValue:))
        album = heard.most { $0.album }?.value
        title = MomentTitle(assets, heard: heard, partOfDay: PartOfDay(hour: localTime.hour(of: started)))
    }
}

/// How much of a moment each thing was heard: an asset weighs its listened time (never nothing, so
/// a donation that says nothing still counts).
struct Heard {
    let assets: [MediaAsset]
    let total: Microseconds

    init(_ assets: [MediaAsset]) {
        self.assets = assets
        total = assets.reduce(0) { $0 &+ Self.weight($1) }
    }

    static func weight(_ asset: MediaAsset) -> Microseconds { max(1, asset.listened) }

    /// The values `of` gives for the assets, most heard first; ties keep the order first heard.
    func ranked(_ of: (MediaAsset) -> [String]) -> [String] {
        // A moment holds a few listens: a list searched in order is cheaper than hashing.
        var weights: [(value: String, weight: Microseconds)] = []
        for asset in assets {
            for value in of(asset) {
                if let index = weights.firstIndex(where: { $0.value == value }) {
                    weights[index].weight &+= Self.weight(asset)
                } else {
                    weights.append((value, Self.weight(asset)))
                }
            }
        }
        // The list is in the order first heard, which breaks ties.
        return weights.indices.sorted { a, b in
            weights[a].weight != weights[b].weight ? weights[a].weight > weights[b].weight : a < b
        }.map { weights[$0].value }
    }

    /// The one value heard for more than half of the moment, if any ("most" of it).
    func most(_ of: (MediaAsset) -> String?) -> (value: String, assets: [MediaAsset])? {
        for asset in assets {
            guard let value = of(asset) else { continue }
            let same = assets.filter { of($0) == value }
            if Heard(same).total > total / 2 { return (value, same) }
        }
        return nil
    }
}
