import SwiftDBus
import BrokerCore

/// The `Response` a request ends with, as `org.freedesktop.portal.Request` has it: `0` the person
/// shared, `1` cancelled, `2` the request ended otherwise (the picker could not start, was closed
/// or killed, or the history could not be read). Pure.
enum PickResponse {
    /// The listens shared, in the order shown; `momentID` when they were picked from a moment.
    case shared(assets: [MediaAsset], momentID: String?)
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
    /// picked from one: the moment made of the shared listens alone (its title, times, count and
    /// listened time tell nothing of the listens left out), under the id the picker showed.
    func results(localTime: LocalTime) -> [String: DBusValue] {
        guard case .shared(let assets, let momentID) = self else { return [:] }
        var results: [String: DBusValue] = ["assets": .array(element: .vardict, assets.map(\.fields))]
        if let momentID, !assets.isEmpty {
            let moment = Moment(assets.sorted { ($0.started, $0.id ?? 0) < ($1.started, $1.id ?? 0) }[...], localTime: localTime)
            var fields = moment.values(localTime: localTime)
            fields["id"] = .string(momentID)
            results["moment"] = .vardict(fields)
        }
        return results
    }

    /// What the picker's answer becomes, given the listens it named as read from the history:
    /// only listens of the offered span, in the order the person saw them.
    static func shared(ids: [Int64], found: [MediaAsset], momentID: String?, span: ClosedRange<Microseconds>) -> PickResponse {
        let byID = Dictionary(found.compactMap { asset in asset.id.map { ($0, asset) } }, uniquingKeysWith: { first, _ in first })
        let assets = ids.compactMap { byID[$0] }.filter { span.contains($0.started) }
        return .shared(assets: assets, momentID: momentID)
    }
}
