import FoundationEssentials
public import MediaDonationClient
public import PickerChannel

/// What the picker offers: the span's moments, richest first, each with its listens, and the
/// span's single listens, newest first — read from the broker as any host reader reads them.
public struct PickerContent: Sendable {
    public struct Offer: Sendable {
        public var moment: Moment
        public var assets: [GenericMedia]
    }

    /// *Recommended*: the span's moments, the most listened first.
    public var recommended: [Offer]
    /// *Recent*: every listen of the span, newest first.
    public var recent: [GenericMedia]

    public static let maximumMoments = 50
    public static let maximumRecent = 200

    public init(recommended: [Offer], recent: [GenericMedia]) {
        self.recommended = recommended
        self.recent = recent
    }

    /// Reads the request's span from the broker.
    public static func load(for request: PickerRequest, from client: MediaBrokerClient) async throws(MediaBrokerError) -> PickerContent {
        let since = Date(microsecondsSinceEpoch: request.since), until = Date(microsecondsSinceEpoch: request.until)
        let moments = try await client.moments(since: since, until: until, limit: maximumMoments)
        let recent = try await client.recentMedia(since: since, until: until, limit: maximumRecent)
        let ids = Array(moments.flatMap(\.assetIDs).prefix(1000))
        let assets = ids.isEmpty ? [] : try await client.media(ids: ids)
        return PickerContent(moments: moments, assets: assets, recent: recent)
    }

    /// Orders `moments` richest first and gives each its listens found in `assets`.
    public init(moments: [Moment], assets: [GenericMedia], recent: [GenericMedia]) {
        let byID = Dictionary(assets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let offers = moments.compactMap { moment -> Offer? in
            let listens = moment.assetIDs.compactMap { byID[$0] }
            return listens.isEmpty ? nil : Offer(moment: moment, assets: listens)
        }
        self.init(recommended: offers.sorted(by: Self.richer), recent: recent)
    }

    /// More listened first; then more listens; then newer.
    static func richer(_ a: Offer, _ b: Offer) -> Bool {
        if a.moment.listened != b.moment.listened { return a.moment.listened > b.moment.listened }
        if a.assets.count != b.assets.count { return a.assets.count > b.assets.count }
        return a.moment.started > b.moment.started
    }

    public var isEmpty: Bool { recommended.isEmpty && recent.isEmpty }
}

extension Date {
    init(microsecondsSinceEpoch micros: Int64) {
        self.init(timeIntervalSince1970: Double(micros) / 1_000_000)
    }
}
