import SwiftDBus

/// The `Response` a request ends with, as `org.freedesktop.portal.Request` has it: `0` the person
/// shared, `1` cancelled, `2` the request ended otherwise (the picker could not start, was closed
/// or killed, or the history could not be read). Pure.
enum PickResponse {
    case shared(assets: [MediaAsset], moment: Moment?)
    case cancelled
    case ended

    var code: UInt32 {
        switch self {
        case .shared: 0
        case .cancelled: 1
        case .ended: 2
        }
    }

    /// `results`: only what the person picked — `assets`, and `moment` when the listens were
    /// picked from one (its `asset_ids` and `count` then name only the listens shared).
    func results(localTime: LocalTime) -> [String: DBusValue] {
        guard case .shared(let assets, let moment) = self else { return [:] }
        var results: [String: DBusValue] = ["assets": .array(element: .vardict, assets.map(\.fields))]
        if let moment {
            let shared = Set(assets.compactMap(\.id))
            var fields = moment.values(localTime: localTime)
            fields["asset_ids"] = .array(element: .int64, moment.assets.compactMap(\.id).filter(shared.contains).map(DBusValue.int64))
            fields["count"] = .uint32(UInt32(clamping: assets.count))
            results["moment"] = .vardict(fields)
        }
        return results
    }

    /// What the picker's answer becomes, given the listens it named as read from the history:
    /// only listens of the offered span, in the order the person saw them.
    static func shared(ids: [Int64], found: [MediaAsset], moment: Moment?, span: ClosedRange<Microseconds>) -> PickResponse {
        let byID = Dictionary(found.compactMap { asset in asset.id.map { ($0, asset) } }, uniquingKeysWith: { first, _ in first })
        let assets = ids.compactMap { byID[$0] }.filter { span.contains($0.started) }
        return .shared(assets: assets, moment: moment)
    }
}
