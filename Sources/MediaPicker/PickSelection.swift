public import MediaDonationClient
public import PickerChannel

/// What is open in the picker and what of it is ticked — the picker's state, without a window.
///
/// Opening a moment offers all its listens, all ticked; opening a single listen offers it alone.
/// When the app asked for one listen (`multiple` false) ticking one unticks the rest.
public struct PickSelection: Sendable {
    public enum Opened: Sendable, Equatable {
        case moment(String)
        case listen(Int64)
    }

    public let multiple: Bool
    public private(set) var opened: Opened?
    /// The listens offered by what is open, in the order shown.
    public private(set) var offered: [GenericMedia] = []
    public private(set) var ticked: Set<Int64> = []

    public init(multiple: Bool) { self.multiple = multiple }

    public mutating func open(_ offer: PickerContent.Offer) {
        opened = .moment(offer.moment.id)
        present(offer.assets)
    }

    public mutating func open(_ listen: GenericMedia) {
        opened = .listen(listen.id)
        present([listen])
    }

    private mutating func present(_ assets: [GenericMedia]) {
        offered = assets
        ticked = multiple ? Set(assets.map(\.id)) : Set(assets.prefix(1).map(\.id))
    }

    public mutating func set(_ id: Int64, ticked isTicked: Bool) {
        guard offered.contains(where: { $0.id == id }) else { return }
        if isTicked {
            if !multiple { ticked.removeAll() }
            ticked.insert(id)
        } else {
            ticked.remove(id)
        }
    }

    public func isTicked(_ id: Int64) -> Bool { ticked.contains(id) }

    /// Whether *Share* has something to share.
    public var canShare: Bool { !ticked.isEmpty }

    /// The answer *Share* sends: the ticked listens in the order shown, and the moment they are of.
    public var answer: PickerAnswer {
        let ids = offered.map(\.id).filter(ticked.contains)
        guard case .moment(let moment) = opened else { return .shared(assetIDs: ids, momentID: nil) }
        return .shared(assetIDs: ids, momentID: moment)
    }
}
