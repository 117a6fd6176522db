/// Who receives `MediaAdded` and `MediaRemoved` (issue 20): the connections that called
/// `Subscribe`, each for as long as its connection lives and its reader may read — a revoked grant
/// stops its signals at once, since the recipients are worked out for every signal. Pure.
package struct Subscribers {

    package init() {}
    /// Subscribed connections at most: each costs a copy of every signal.
    package static let maximum = 256

    private var readers: [String: Reader] = [:]

    /// Adds `uniqueName`; `false` when the bound is reached.
    package mutating func add(_ uniqueName: String, reader: Reader) -> Bool {
        guard readers[uniqueName] != nil || readers.count < Self.maximum else { return false }
        readers[uniqueName] = reader
        return true
    }

    package mutating func remove(_ uniqueName: String) { readers[uniqueName] = nil }

    /// The connections a signal goes to under `settings`, in a stable order.
    package func recipients(under settings: PrivacySettings) -> [String] {
        var names: [String] = []
        names.reserveCapacity(readers.count)
        for (name, reader) in readers where ReaderPolicy.refusal(of: .readHistory, to: reader, settings: settings) == nil {
            names.append(name)
        }
        return names.count > 1 ? names.sorted() : names
    }

    var count: Int { readers.count }
}
